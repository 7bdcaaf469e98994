/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node next to n8n, not in n8n Cloud */
import { mapWithConcurrency } from '../../nodes/TenantApi/actions/common/runItems';

describe('mapWithConcurrency', () => {
	it('keeps order and never exceeds the limit', async () => {
		let active = 0;
		let peak = 0;
		const result = await mapWithConcurrency(20, 4, async (i) => {
			active++;
			peak = Math.max(peak, active);
			await new Promise((resolve) => setTimeout(resolve, (20 - i) % 5));
			active--;
			return i * 2;
		});
		expect(result).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
		expect(peak).toBe(4);
	});
});
