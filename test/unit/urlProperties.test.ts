/**
 * The action node's URL confinement, property-based (test/property/urls.ts): endpoints and next-page links from
 * hostile pieces and mutations of plain ones are refused, or resolve within the Base URL as the WHATWG parser and a
 * lenient server read them; plain ones resolve as written; base URLs are https (plain http on loopback) or refused;
 * nothing throws anything but UnsafeUrlError. A fixed seed here; `npm run fuzz` runs the long campaign.
 */
import fc from 'fast-check';

import { holds } from '../property/common';
import { URL_GROUPS, confinementBreach, serverClimb } from '../property/urls';

const SEED = 20261124;
/** Cases per group, shared out among its properties. */
const RUNS = 2_000;

describe('the oracle', () => {
	it.each([
		['..', true],
		['a/..', false],
		['a/../..', true],
		['%2e%2E', true],
		['%252e%252e/x', true],
		['%c0%ae%c0%ae', true],
		['%u002e%u002e', true],
		['%EF%BC%8E%EF%BC%8E', true],
		['%E2%80%A5', true],
		['%EF%BC%85%EF%BC%92%EF%BD%85.', true],
		['a%2f..%2f..', true],
		['a%5c..%5c..', true],
		['..;x=1', true],
		['..%3F', true],
		['..%23x', true],
		['..%20', true],
		['..+', true],
		['%09..%0d', true],
		['x/...', true],
		['.', false],
		['a..b', false],
		['.well-known', false],
		['a%3f/..', false],
		['%zz/..%', false],
		['', false],
	])('a lenient server reads %p as climbing above its base: %p', (tail, climbs) => {
		expect(serverClimb(tail) !== undefined).toBe(climbs);
	});

	it.each([
		['https://api.example.com/v1/x', undefined],
		['https://api.example.com/v1', undefined],
		['https://api.example.com/v1evil/x', /outside/],
		['https://api.example.com:444/v1/x', /goes to/],
		['http://api.example.com/v1/x', /goes to/],
		['https://u:p@api.example.com/v1/x', /user name/],
		['/v1/x', /not an absolute URL/],
		['https://api.example.com/v1/..%3b/x', /climbs/],
	])('%s breaks confinement to https://api.example.com/v1: %p', (href, why) => {
		const breach = confinementBreach({ origin: 'https://api.example.com', path: '/v1' }, href);
		if (why === undefined) expect(breach).toBeUndefined();
		else expect(breach).toMatch(why);
	});
});

describe.each(URL_GROUPS.map((group) => [group.label, group] as const))('%s', (_label, group) => {
	it.each(group.properties.map((property) => [property.name, property] as const))(
		'%s',
		(_name, property) => {
			fc.assert(property.property(holds), {
				seed: SEED,
				numRuns: Math.round(RUNS * property.share),
			});
		},
	);
});
