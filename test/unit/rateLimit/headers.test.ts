import { readRateLimitHeaders } from '../../../nodes/TenantApi/transport/rateLimit/headers';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('rate-limit headers', () => {
	it('reads the IETF draft headers, with the policy rate and burst', () => {
		expect(
			readRateLimitHeaders(
				{
					'ratelimit-limit': '50',
					'ratelimit-remaining': '7',
					'ratelimit-reset': '1',
					'ratelimit-policy': '50;w=1;burst=10',
				},
				NOW,
			),
		).toEqual({ remaining: 7, resetMs: 1000, policy: { perSecond: 50, burst: 10 } });
	});

	it('reads the newer structured policy form and keeps the slowest of several policies', () => {
		expect(
			readRateLimitHeaders(
				{ 'ratelimit-policy': '"burst";q=100;w=1, "daily";q=86400;w=86400' },
				NOW,
			)?.policy,
		).toEqual({ perSecond: 1 });
		expect(readRateLimitHeaders({ 'ratelimit-policy': '10;w=1, 3000;w=60' }, NOW)?.policy).toEqual({
			perSecond: 10,
		});
	});

	it('reads X-RateLimit-* and X-Rate-Limit-* with a Unix-time Reset', () => {
		const reset = String((NOW + 42_000) / 1000);
		expect(
			readRateLimitHeaders(
				{ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
				NOW,
			),
		).toEqual({ remaining: 0, resetMs: 42_000 });
		expect(
			readRateLimitHeaders({ 'x-rate-limit-remaining': ['3'], 'x-rate-limit-reset': '2' }, NOW),
		).toEqual({ remaining: 3, resetMs: 2000 });
		expect(readRateLimitHeaders({ 'x-ratelimit-reset': String(NOW / 1000 - 5) }, NOW)).toEqual({
			resetMs: 0,
		});
	});

	it('reads the first number of a list value (RateLimit-Limit: 10, 10;w=1) and drops what it cannot read', () => {
		expect(
			readRateLimitHeaders({ 'ratelimit-remaining': '4, 40;w=60', 'ratelimit-reset': 'soon' }, NOW),
		).toEqual({ remaining: 4 });
		expect(readRateLimitHeaders({ 'ratelimit-policy': 'w=1;q=0' }, NOW)).toBeUndefined();
	});

	it('is undefined for answers without rate-limit headers', () => {
		expect(
			readRateLimitHeaders({ 'content-type': 'application/json', 'retry-after': '1' }, NOW),
		).toBeUndefined();
	});
});
