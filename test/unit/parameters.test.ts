import type { IExecuteFunctions } from 'n8n-workflow';

import {
	cachedParameterReader,
	clampWhole,
	wholeInRange,
} from '../../nodes/TenantApi/actions/common/parameters';

/** Just what cachedParameterReader uses of the execute context: the node's raw parameters and the reads. */
function context(parameters: Record<string, unknown>) {
	const reads: Array<[string, number]> = [];
	const fn = {
		getNode: () => ({ parameters }),
		getNodeParameter: (path: string, itemIndex: number) => {
			reads.push([path, itemIndex]);
			return `${path}@${itemIndex}`;
		},
	} as unknown as IExecuteFunctions;
	return { fn, reads };
}

describe('cachedParameterReader', () => {
	it('reads an expression for every item', () => {
		const { fn, reads } = context({ endpoint: '={{ "/t/" + $json.id }}' });
		const endpointOf = cachedParameterReader(fn, 'endpoint', '');
		expect([0, 1, 2].map(endpointOf)).toEqual(['endpoint@0', 'endpoint@1', 'endpoint@2']);
		expect(reads).toHaveLength(3);
	});

	it('reads a fixed value once, for the first item that asks, also inside a collection', () => {
		const { fn, reads } = context({ endpoint: '/transfers', options: { includeMetadata: true } });
		const endpointOf = cachedParameterReader(fn, 'endpoint', '');
		const metadataOf = cachedParameterReader(fn, 'options.includeMetadata', false);
		expect(reads).toHaveLength(0);
		expect([3, 4, 5].map(endpointOf)).toEqual(['endpoint@3', 'endpoint@3', 'endpoint@3']);
		expect([0, 1].map(metadataOf)).toEqual([
			'options.includeMetadata@0',
			'options.includeMetadata@0',
		]);
		expect(reads).toEqual([
			['endpoint', 3],
			['options.includeMetadata', 0],
		]);
	});

	it('an option that is not set is read once too (n8n gives the fallback)', () => {
		const { fn, reads } = context({ options: {} });
		const of = cachedParameterReader(fn, 'options.includeMetadata', false);
		of(0);
		of(1);
		expect(reads).toHaveLength(1);
	});
});

describe('numbers from parameters', () => {
	it('clamps to the range and falls back on non-numbers', () => {
		expect(clampWhole(2000, 1, 10, 4)).toBe(10);
		expect(clampWhole(-3, 1, 64, 5)).toBe(1);
		expect(clampWhole('7', 1, 64, 5)).toBe(7);
		expect(clampWhole(2.9, 1, 64, 5)).toBe(2);
		expect(clampWhole('abc', 1, 64, 5)).toBe(5);
		expect(clampWhole(undefined, 1, 64, 5)).toBe(5);
		expect(clampWhole(Number.POSITIVE_INFINITY, 1, 64, 5)).toBe(5);
	});

	it('refuses what a guess would get wrong', () => {
		expect(wholeInRange(30000, 1, 2 ** 31 - 1, 'Timeout (Ms)')).toBe(30000);
		expect(() => wholeInRange(2 ** 31, 1, 2 ** 31 - 1, 'Timeout (Ms)')).toThrow(
			'Timeout (Ms) must be a whole number from 1 to 2147483647, not 2147483648',
		);
		expect(() => wholeInRange(0, 1, 10, 'X')).toThrow(/not 0/);
		expect(() => wholeInRange('soon', 1, 10, 'X')).toThrow(/not "soon"/);
	});
});
