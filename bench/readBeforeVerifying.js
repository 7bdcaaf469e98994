'use strict';
/**
 * What a request nobody signed costs in the schemes that read the body before checking a signature (Adyen's items
 * and Custom HMAC with the signature inside items: JSON; Twilio's and Custom HMAC `{formFields}`: form fields), in
 * the shapes of at most MAX_BODY_READ_BEFORE_VERIFYING bytes that cost most to read, against what the platform itself
 * pays to read the same bytes:
 * - JSON: `JSON.parse(rawBody.toString('utf8'))`;
 * - forms: `new URLSearchParams(rawBody.toString('utf8'))`, every pair iterated.
 * The trigger's figure is the whole `readDelivery` of the scheme up to the refusal (decoding, reading, the items or
 * fields, the HMAC of the first item). CPU time of the process (process.cpuUsage), baseline and trigger measured one
 * after the other in each round; the ratio is the median of the rounds' ratios.
 * Run alone: `node bench/readBeforeVerifying.js [--rounds 7] [--filter text]` (after `npm run build`).
 */
const {
	MAX_BODY_READ_BEFORE_VERIFYING,
	PRESETS,
	readDelivery,
} = require('../dist/nodes/TenantApiTrigger/verifier');
const { REFUSALS } = require('../dist/nodes/TenantApiTrigger/refusals');
const { verificationConfig } = require('../dist/nodes/TenantApiTrigger/settings');
const { demoSecret, triggerParameters } = require('../sandbox/signing');

const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const FORM = 'application/x-www-form-urlencoded';
/** CPU time each timed loop aims at, so that the clock's granularity does not matter. */
const LOOP_US = 20000;
/** Each function runs at least this many times and this long before it is timed. */
const WARM_CALLS = 20;
const WARM_US = 100000;

/** CPU µs of the process since `started` (a process.cpuUsage() value). */
function cpuSince(started) {
	const used = process.cpuUsage(started);
	return used.user + used.system;
}

/** Custom HMAC with the signature inside each item, Adyen's fields (what an Adyen-like sender is set up with). */
const CUSTOM_ITEMS = {
	verification: 'customHmac',
	customSecretEncoding: 'hex',
	customSignatureIn: 'items',
	customSignatureEncoding: 'base64',
	customSignedContent: PRESETS.adyenPayments.signedContent,
};
const CUSTOM_FORM = {
	verification: 'customHmac',
	customSignedContent: '{url}{formFields}',
	customSignatureHeader: 'x-signature',
	customSignatureEncoding: 'base64',
	customAlgorithm: 'sha1',
	bodyFormat: 'form',
};

/** The settings the node builds from trigger parameters `parameters` (`verification` and the fields it reads). */
function configOf(parameters, secrets) {
	const { verification, ...rest } = parameters;
	return verificationConfig(
		verification,
		(name, fallback) => (rest[name] === undefined ? fallback : rest[name]),
		secrets,
	);
}

/** A deterministic pseudo-random generator (mulberry32), so that every run reads the same bodies. */
function random(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** `count` values of `make(i, next)`, `next` a generator seeded by the shape and `i`: a prefix never changes, and
 * nothing is kept between calls (a cache of every value tried while fitting a body would weigh on the collector). */
function series(seed, make) {
	return (count) => Array.from({ length: count }, (_, i) => make(i, random(seed * 0x100000 + i)));
}

/** A body of exactly `bytes` bytes: `make(n)` for the largest `n` whose text fits, padded with `pad`. */
function fill(bytes, make, pad) {
	let low = 0;
	let high = bytes;
	while (low < high) {
		const mid = Math.ceil((low + high) / 2);
		if (Buffer.byteLength(make(mid)) <= bytes) low = mid;
		else high = mid - 1;
	}
	const text = make(low);
	return Buffer.from(text + pad.repeat(bytes - Buffer.byteLength(text)));
}

const FORGED_FIELDS =
	'"pspReference":"PSP1","originalReference":"","merchantAccountCode":"A","merchantReference":"r","amount":{"value":1,"currency":"EUR"},"eventCode":"AUTHORISATION","success":"true"';
const FORGED_SIGNATURE = '"hmacSignature":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="';

/** One item signed with another key that carries `payload` in its additionalData: read, then refused by its HMAC. */
const inForgedItem = (payload) =>
	`{"live":"false","notificationItems":[{"NotificationRequestItem":{${FORGED_FIELDS},"additionalData":{${FORGED_SIGNATURE},"n":${payload}}}}]}`;
const forgedItem = (i) =>
	`{"NotificationRequestItem":{${FORGED_FIELDS.replace('PSP1', `PSP${i}`)},"additionalData":{${FORGED_SIGNATURE}}}}`;

const SIGNED = [
	'pspReference',
	'originalReference',
	'merchantAccountCode',
	'merchantReference',
	'amount',
	'eventCode',
	'success',
];
/** Items whose signature and every signed field are number tokens (each from `token(i)`): what verifying reads first. */
const numberItems = (seed, token) => {
	const tokens = series(seed, token);
	return (count) => {
		const all = tokens(count * 9);
		const item = (i) => {
			const t = all.slice(i * 9, i * 9 + 9);
			const fields = SIGNED.map((name, f) =>
				name === 'amount' ? `"amount":{"value":${t[f]},"currency":${t[7]}}` : `"${name}":${t[f]}`,
			);
			return `{"NotificationRequestItem":{${fields.join(',')},"additionalData":{"hmacSignature":${t[8]}}}}`;
		};
		return `{"live":"false","notificationItems":[${Array.from({ length: count }, (_, i) => item(i)).join(',')}]}`;
	};
};

/** A JSON list of `count` copies of `token` (or of `token(i)`), in a forged item. */
const numbers = (token) => (count) =>
	inForgedItem(
		`[${Array.from({ length: count }, (_, i) => (typeof token === 'function' ? token(i) : token)).join(',')}]`,
	);
const distinct = (seed, make) => {
	const tokens = series(seed, make);
	return (count) => inForgedItem(`[${tokens(count).join(',')}]`);
};

/** A random double in [0.1, 1) printed at its shortest (16 or 17 digits): a number JavaScript holds as written. */
const shortestDouble = (_, next) => String(0.1 + 0.9 * next());
/** The same with its last digit changed: a decimal no double prints as (kept as text). */
const offByOneDigit = (_, next) => {
	const text = String(0.1 + 0.9 * next());
	const last = Number(text[text.length - 1]);
	return text.slice(0, -1) + String(last === 9 ? 1 : last + 1);
};
/** 1 + c/2^17 holds 17 decimals exactly; one digit less, rounded either way, lies exactly halfway to the double. */
const tieToDouble = (i, next) => {
	const c = 2 * Math.floor(next() * 65536) + 1;
	const exact = (1 + c / 131072).toFixed(17);
	const down = exact.slice(0, -1);
	if (i % 2 === 0) return down;
	const up = (BigInt(down.replace('.', '')) + 1n).toString();
	return `${up[0]}.${up.slice(1)}`;
};
/** A subnormal double printed at its shortest. */
const subnormal = (_, next) => String(Math.floor(next() * 2 ** 52) * 5e-324);
/** 17 random digits with an exponent far from 0: outside the range where 10^p is one double. */
const farExponent = (_, next) =>
	`${(1 + 9 * next()).toFixed(16)}e-2${10 + Math.floor(next() * 89)}`;
const bigWhole = (_, next) => String(9007199254740993n + BigInt(Math.floor(next() * 1e9)));

/** JSON shapes of a forged items body: name → text of `n` units. Each is the worst of its kind for some reading. */
const JSON_SHAPES = {
	'one item of 128 KiB': () => inForgedItem(`"${'x'.repeat(130000)}"`),
	'many small items': (n) =>
		`{"live":"false","notificationItems":[${Array.from({ length: n }, (_, i) => forgedItem(i)).join(',')}]}`,
	'numbers 1e1': numbers('1e1'),
	'numbers 9e9': numbers('9e9'),
	'numbers 1e400 (kept as text)': numbers('1e400'),
	'numbers 1e-400 (kept as text)': numbers('1e-400'),
	'numbers 0e400, -0': numbers((i) => (i % 2 ? '-0' : '0e400')),
	'whole numbers 1e16 (kept as text)': numbers('1e16'),
	'whole numbers 2^53 - 1, 2^53 + 1': numbers((i) =>
		i % 2 ? '9007199254740991' : '9007199254740993',
	),
	'whole numbers 1e15, 9.007199254740991e15': numbers((i) =>
		i % 2 ? '1e15' : '9.007199254740991e15',
	),
	'distinct whole numbers beyond 2^53': distinct(1, bigWhole),
	'distinct 15-digit decimals': distinct(2, (_, next) => (0.1 + 0.9 * next()).toFixed(15)),
	'distinct 16-digit decimals': distinct(3, (_, next) => (0.1 + 0.9 * next()).toPrecision(16)),
	'distinct 16-17-digit doubles at their shortest': distinct(4, shortestDouble),
	'distinct 17-digit decimals off by one digit': distinct(5, offByOneDigit),
	'distinct 17-digit decimals halfway to a double': distinct(6, tieToDouble),
	'distinct 17-digit decimals, exponents -210 to -298': distinct(7, farExponent),
	'distinct subnormal doubles': distinct(8, subnormal),
	'repeated 17-digit decimal': numbers('0.12345678901234567'),
	'many items, signed fields 1e400': numberItems(9, () => '1e400'),
	'many items, signed fields distinct 17-digit decimals': numberItems(10, offByOneDigit),
	'many items, signed fields distinct doubles at their shortest': numberItems(11, shortestDouble),
	'many items, signed fields distinct subnormal doubles': numberItems(12, subnormal),
	'numbers in strings': numbers('"1e400"'),
	'deep nesting, one 1e400': (n) => inForgedItem(`${'['.repeat(n)}1e400${']'.repeat(n)}`),
	'deep objects, one 1e400': (n) => inForgedItem(`${'{"a":'.repeat(n)}1e400${'}'.repeat(n)}`),
	'many keys of 1e1': (n) =>
		inForgedItem(`{${Array.from({ length: n }, (_, i) => `"k${i}":1e1`).join(',')}}`),
	'many keys, one 1e400': (n) =>
		inForgedItem(`{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')},"z":1e400}`),
	'one key repeated, 1e400 each (kept as text)': (n) =>
		inForgedItem(`{${Array(n).fill('"a":1e400').join(',')}}`),
	'one key repeated, lists of 1e400': (n) =>
		inForgedItem(`{${Array(n).fill('"a":[1e400]').join(',')}}`),
	'whitespace, one 1e400': (n) => inForgedItem(`[${' '.repeat(n)}1e400]`),
	'short whitespace runs between numbers, one 1e400': (n) =>
		inForgedItem(`[${Array(n).fill('1').join(',\n               ')},1e400]`),
	'short strings, one 1e400': (n) => inForgedItem(`[${Array(n).fill('"a"').join(',')},1e400]`),
	'escaped quotes, one 1e400': (n) => inForgedItem(`["${'\\"'.repeat(n)}",1e400]`),
	'escaped backslashes before quotes, one 1e400': (n) =>
		inForgedItem(`[${Array(n).fill('"\\\\"').join(',')},1e400]`),
	'non-ASCII text, one 1e400': (n) => inForgedItem(`["${'é'.repeat(n)}",1e400]`),
	'true, false, null, one 1e400': (n) =>
		inForgedItem(
			`[${Array.from({ length: n }, (_, i) => ['true', 'false', 'null'][i % 3]).join(',')},1e400]`,
		),
	'empty objects and lists, one 1e400': (n) =>
		inForgedItem(`[${Array.from({ length: n }, (_, i) => (i % 2 ? '{}' : '[]')).join(',')},1e400]`),
	'not JSON from its first byte': (n) => `x${numbers('1e400')(n)}`,
};

const twilioSignature = {
	'x-twilio-signature': Buffer.alloc(20, 1).toString('base64'),
	'x-signature': Buffer.alloc(20, 1).toString('base64'),
};
const fields = (count, field) => Array.from({ length: count }, (_, i) => field(i)).join('&');

/** Form shapes: name → text of `n` units. */
const FORM_SHAPES = {
	"one field of '+'": (n) => `a=${'+'.repeat(n)}`,
	'one field without escapes': (n) => `a=${'x'.repeat(n)}`,
	'1,000 fields of %41 escapes': (n) => fields(1000, (i) => `f${i}=${'%41'.repeat(n)}`),
	'1,000 fields of two-byte UTF-8 escapes': (n) =>
		fields(1000, (i) => `f${i}=${'%C3%A9'.repeat(n)}`),
	"1,000 fields of '+'": (n) => fields(1000, (i) => `f${i}=${'+'.repeat(n)}`),
	"one field, a '+' every 64 bytes": (n) => `a=${`${'x'.repeat(63)}+`.repeat(n)}`,
	"one field of '+x'": (n) => `a=${'+x'.repeat(n)}`,
	'one field of unescaped two-byte UTF-8': (n) => `a=${'é'.repeat(n)}`,
	'1,000 fields of %26 (escaped separators)': (n) =>
		fields(1000, (i) => `f${i}=${'%26'.repeat(n)}`),
	"1,000 fields of '='": (n) => fields(1000, (i) => `f${i}=${'='.repeat(n)}`),
	'1,000 names without values': (n) => fields(1000, (i) => `${'x'.repeat(n)}${i}`),
	'1,000 fields, names in reverse order': (n) =>
		fields(1000, (i) => `${'z'.repeat(n)}${999 - i}=v`),
	'1,000 fields, names sharing a prefix, shuffled': (n) =>
		fields(1000, (i) => `${'z'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, two groups of names sharing a prefix, shuffled': (n) =>
		fields(1000, (i) => `${i % 2 ? 'a' : 'b'}${'z'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, escaped names sharing a prefix': (n) =>
		fields(1000, (i) => `${'%7A'.repeat(n)}${(i * 7919) % 1000}=v`),
	'1,000 fields, one name, values sharing a prefix': (n) =>
		fields(1000, (i) => `a=${'v'.repeat(n)}${(i * 7919) % 1000}`),
	'1,000 tiny fields, then padding': () => fields(1000, (i) => `f${i}=${i}`),
	'over 1,000 tiny fields': (n) => fields(n, (i) => `${i % 10}`),
	"escapes without hex digits ('%zz')": (n) => `a=${'%zz'.repeat(n)}`,
	'not UTF-8 from its first byte': (n) => `a=%FF${'%41'.repeat(n)}`,
};

/**
 * CPU µs per call of `baseline` and `trigger`, and their ratio: a warm-up of each, then `rounds` rounds in which each runs
 * for about LOOP_US (order alternating round by round). Each figure is a median over the rounds.
 */
function pairedCpu(baseline, trigger, rounds) {
	const perCall = (fn, calls) => {
		const started = process.cpuUsage();
		for (let i = 0; i < calls; i++) fn();
		return cpuSince(started) / calls;
	};
	// Warm first: a few cold calls run before the JIT compiles the code, several times slower than it runs after.
	const warmUp = (fn) => {
		const started = process.cpuUsage();
		for (let calls = 0; calls < WARM_CALLS || cpuSince(started) < WARM_US; calls++) fn();
	};
	const callsFor = (fn) => {
		warmUp(fn);
		return Math.max(3, Math.ceil(LOOP_US / Math.max(1, perCall(fn, 5))));
	};
	const baselineCalls = callsFor(baseline);
	const triggerCalls = callsFor(trigger);
	const base = [];
	const ours = [];
	for (let round = 0; round < rounds; round++) {
		if (round % 2 === 0) {
			base.push(perCall(baseline, baselineCalls));
			ours.push(perCall(trigger, triggerCalls));
		} else {
			ours.push(perCall(trigger, triggerCalls));
			base.push(perCall(baseline, baselineCalls));
		}
	}
	const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return {
		baselineUs: median(base),
		triggerUs: median(ours),
		ratio: median(ours.map((us, round) => us / base[round])),
	};
}

function jsonBaseline(body) {
	return () => {
		try {
			JSON.parse(body.toString('utf8'));
		} catch {
			// a refusal, as the trigger's
		}
	};
}

function formBaseline(body) {
	return () => {
		let fields = 0;
		for (const pair of new URLSearchParams(body.toString('utf8'))) fields += pair.length;
		return fields;
	};
}

/**
 * A delivery read as the trigger reads it (with the clock's time), and what the sender would get: `started`, or the
 * refusal's status and reason.
 */
function readSent(config, sent) {
	const input = {
		rawBody: sent.body,
		headers: sent.headers,
		nowSeconds: Math.floor(Date.now() / 1000),
		url: sent.url,
	};
	const reading = readDelivery(config, input);
	const status = reading.ok ? undefined : REFUSALS[reading.reason].status;
	return {
		input,
		reading,
		status,
		outcome: reading.ok ? 'started' : `${status} ${reading.reason}`,
	};
}

function row(scheme, shape, config, sent, baseline, rounds) {
	const { input, reading, outcome } = readSent(config, sent);
	if (reading.ok) throw new Error(`${scheme}, ${shape}: the request was accepted`);
	return {
		scheme,
		shape,
		bytes: sent.body.length,
		outcome,
		...pairedCpu(baseline, () => readDelivery(config, input), rounds),
	};
}

/** Every shape in every scheme that reads before verifying; `filter` keeps the rows whose name contains it. */
function readBeforeBench({ rounds = 5, filter = '' } = {}) {
	const bytes = MAX_BODY_READ_BEFORE_VERIFYING;
	const wanted = (scheme, shape) => `${scheme}, ${shape}`.includes(filter);
	const rows = [];
	const adyen = configOf(triggerParameters('adyen-payments'), [demoSecret('adyen-payments')]);
	const itemsCustom = configOf(CUSTOM_ITEMS, [demoSecret('adyen-payments')]);
	for (const [shape, make] of Object.entries(JSON_SHAPES)) {
		if (!wanted('adyen-payments', shape) && !wanted('Custom HMAC items', shape)) continue;
		const body = fill(bytes, make, ' ');
		// Custom HMAC takes nothing beside the items: the same body without Adyen's `live` (same size, spaces instead).
		const custom = Buffer.from(body.toString().replace('"live":"false",', ' '.repeat(15)));
		const json = (raw) => ({
			body: raw,
			headers: { 'content-type': 'application/json' },
			url: URL_,
		});
		if (wanted('adyen-payments', shape))
			rows.push(row('adyen-payments', shape, adyen, json(body), jsonBaseline(body), rounds));
		if (wanted('Custom HMAC items', shape))
			rows.push(
				row('Custom HMAC items', shape, itemsCustom, json(custom), jsonBaseline(custom), rounds),
			);
	}
	const twilio = configOf(triggerParameters('twilio'), [demoSecret('twilio')]);
	const formCustom = configOf(CUSTOM_FORM, [demoSecret('twilio')]);
	for (const [shape, make] of Object.entries(FORM_SHAPES)) {
		if (!wanted('twilio', shape) && !wanted('Custom HMAC {formFields}', shape)) continue;
		const body = fill(bytes, make, '&');
		const form = { body, headers: { 'content-type': FORM, ...twilioSignature }, url: URL_ };
		if (wanted('twilio', shape))
			rows.push(row('twilio', shape, twilio, form, formBaseline(body), rounds));
		if (wanted('Custom HMAC {formFields}', shape))
			rows.push(
				row('Custom HMAC {formFields}', shape, formCustom, form, formBaseline(body), rounds),
			);
	}
	return { bytes, rounds, rows };
}

function printReadBefore(report) {
	console.log(
		`\n| Read before verifying, at most ${report.bytes} bytes, signed with another key (CPU, median of ${report.rounds} rounds) | bytes | answer | baseline µs | trigger µs | trigger ÷ baseline |`,
	);
	console.log('|---|---:|---|---:|---:|---:|');
	for (const r of report.rows)
		console.log(
			`| ${r.scheme}, ${r.shape} | ${r.bytes} | ${r.outcome} | ${r.baselineUs.toFixed(0)} | ${r.triggerUs.toFixed(0)} | ${r.ratio.toFixed(2)} |`,
		);
	const worst = report.rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
	console.log(
		`\nWorst ratio: ${worst.ratio.toFixed(2)} (${worst.scheme}, ${worst.shape}); most CPU: ${Math.max(...report.rows.map((r) => r.triggerUs)).toFixed(0)} µs`,
	);
}

module.exports = { configOf, readBeforeBench, printReadBefore, readSent };

if (require.main === module) {
	const args = process.argv.slice(2);
	const option = (name, fallback) =>
		args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback;
	printReadBefore(
		readBeforeBench({ rounds: Number(option('rounds', 5)), filter: option('filter', '') }),
	);
}
