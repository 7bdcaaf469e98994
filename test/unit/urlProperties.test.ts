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
	const CLIMBING =
		'.. a/../.. %2e%2E %252e%252e/x %c0%ae%c0%ae %u002e%u002e %EF%BC%8E%EF%BC%8E %E2%80%A5 %EF%BC%85%EF%BC%92%EF%BD%85. a%2f..%2f.. a%5c..%5c.. ..;x=1 ..%3F ..%23x ..%20 ..+ %09..%0d x/...';
	const STAYING = ['a/..', '.', 'a..b', '.well-known', 'a%3f/..', '%zz/..%', ''];
	it.each([
		...CLIMBING.split(' ').map((tail) => [tail, true] as const),
		...STAYING.map((tail) => [tail, false] as const),
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
