import { readRateLimitHeaders } from '../../../nodes/TenantApi/transport/rateLimit/headers';

const NOW = Date.parse('2026-11-22T10:00:00Z');

it.each([
	[
		'the IETF draft headers, with the policy rate and burst',
		{
			'ratelimit-limit': '50',
			'ratelimit-remaining': '7',
			'ratelimit-reset': '1',
			'ratelimit-policy': '50;w=1;burst=10',
		},
		{ remaining: 7, resetMs: 1000, policy: { perSecond: 50, burst: 10 } },
	],
	[
		'the newer structured policy form, the slowest of several policies',
		{ 'ratelimit-policy': '"burst";q=100;w=1, "daily";q=86400;w=86400' },
		{ policy: { perSecond: 1 } },
	],
	[
		'the slowest of several policies',
		{ 'ratelimit-policy': '10;w=1, 3000;w=60' },
		{ policy: { perSecond: 10 } },
	],
	[
		'X-RateLimit-* with a Unix-time Reset',
		{
			'x-ratelimit-limit': '5000',
			'x-ratelimit-remaining': '0',
			'x-ratelimit-reset': String((NOW + 42_000) / 1000),
		},
		{ remaining: 0, resetMs: 42_000 },
	],
	[
		'X-Rate-Limit-*, a list of one',
		{ 'x-rate-limit-remaining': ['3'], 'x-rate-limit-reset': '2' },
		{ remaining: 3, resetMs: 2000 },
	],
	['a Reset in the past', { 'x-ratelimit-reset': String(NOW / 1000 - 5) }, { resetMs: 0 }],
	[
		'the first number of a list value (RateLimit-Limit: 10, 10;w=1), dropping what it cannot read',
		{ 'ratelimit-remaining': '4, 40;w=60', 'ratelimit-reset': 'soon' },
		{ remaining: 4 },
	],
	['no policy from one without a rate', { 'ratelimit-policy': 'w=1;q=0' }, undefined],
	[
		'nothing from an answer without rate-limit headers',
		{ 'content-type': 'application/json', 'retry-after': '1' },
		undefined,
	],
])('rate-limit headers: %s', (_name, headers, expected) => {
	expect(readRateLimitHeaders(headers, NOW)).toEqual(expected);
});
