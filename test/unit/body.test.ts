/**
 * A verified body read once, in the Body Format (nodes/TenantApiTrigger/body.ts): which Content-Types each format
 * takes, and JSON as JSON.parse reads it. The reading rules (strict UTF-8, a leading byte order mark dropped, empty
 * bodies, JSON that is not an object, the form decoding rules and its 1,000 fields) and that none of it is read
 * before the request is authenticated are deliveryProperties.test.ts's: every request is held to the model's own
 * reading (test/property/reading.ts); how numbers are kept exact is exactJson.test.ts.
 */
import { mediaTypeFits, readBody } from '../../nodes/TenantApiTrigger/body';

it('an object, as JSON.parse reads it (key order, a repeated key, __proto__ an own key)', () => {
	const reading = readBody(
		'json',
		Buffer.from(' {"b":1,"a":[true,null],"b":2,"__proto__":{"x":1}} '),
	);
	expect(reading).toEqual({
		ok: true,
		object: JSON.parse('{"b":2,"a":[true,null],"__proto__":{"x":1}}'),
	});
	if (reading.ok) {
		expect(Object.keys(reading.object)).toEqual(['b', 'a', '__proto__']);
		expect(Object.getPrototypeOf(reading.object)).toBe(Object.prototype);
	}
});

it('the Content-Types each format takes: JSON the JSON types, text/plain and none; form only its own', () => {
	const json = ['', 'application/json', 'application/cloudevents+json', 'text/plain'];
	const other = [
		'application/x-www-form-urlencoded',
		'multipart/form-data',
		'application/xml',
		'text/json',
	];
	for (const type of json) expect([type, mediaTypeFits('json', type)]).toEqual([type, true]);
	for (const type of other) expect([type, mediaTypeFits('json', type)]).toEqual([type, false]);
	expect(mediaTypeFits('form', 'application/x-www-form-urlencoded')).toBe(true);
	for (const type of [...json, 'multipart/form-data'])
		expect([type, mediaTypeFits('form', type)]).toEqual([type, false]);
});
