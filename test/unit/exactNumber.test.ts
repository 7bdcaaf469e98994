/**
 * What decides whether a JSON number token reads exactly (nodes/TenantApiTrigger/verifier/exactNumber.ts), against
 * the definition itself: the token reads exactly when the double JSON.parse makes of it prints (String) as the same
 * decimal value and is not a whole number beyond 2^53 - 1. Every rule of the digits, each boundary, and the
 * arithmetic that decides what the digits leave open, for tokens made to sit on its edges.
 */
import fc from 'fast-check';

import {
	CHECK,
	EXACT,
	KEEP_TEXT,
	numberKind,
	printsAsToken,
} from '../../nodes/TenantApiTrigger/verifier/exactNumber';

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A nonzero decimal as sign, significant digits and exponent (`1.50` and `15e-1` alike). */
function canonical(text: string): string | undefined {
	const match = NUMBER.exec(text);
	if (!match) return undefined;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	const all = (whole + fraction).replace(/^0+/, '');
	const digits = all.replace(/0+$/, '');
	return `${sign}${digits}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(all.length - digits.length)}`;
}

/** The definition, by printing. */
function definition(token: string): boolean {
	const number = Number(token);
	if (!Number.isFinite(number) || (Number.isInteger(number) && !Number.isSafeInteger(number)))
		return false;
	if (number === 0) return /^-?[0.]+(?:[eE]|$)/.test(token);
	const printed = String(number);
	return printed === token || canonical(printed) === canonical(token);
}

/** What exactNumber.ts decides, its digits first, the double when they leave it open. */
function decided(token: string): boolean {
	const bytes = Buffer.from(token);
	const kind = numberKind(bytes, 0, bytes.length);
	return kind === EXACT || (kind === CHECK && printsAsToken(Number(token), bytes, 0, bytes.length));
}

describe('what the digits decide', () => {
	it.each([
		// Zero, whatever its sign, digits or exponent.
		['0', EXACT],
		['-0', EXACT],
		['0.000', EXACT],
		['0e400', EXACT],
		['-0.0E-400', EXACT],
		// Up to 15 significant digits in the range of normal doubles: exact.
		['123456789012345', EXACT],
		['0.123456789012345', EXACT],
		['-1.23456789012345e-300', EXACT],
		['1.23456789012345e-307', EXACT],
		['100000000000000000000e-20', EXACT],
		['0.000000000000000000001', EXACT],
		// Whole numbers: exact up to 2^53 - 1, whatever their form.
		['999999999999999', EXACT],
		['1e15', EXACT],
		['9007199254740991', EXACT],
		['9.007199254740991e15', EXACT],
		['90071992547409910e-1', EXACT],
		['-9007199254740991', EXACT],
		['9007199254740992', KEEP_TEXT],
		['9007199254740993', KEEP_TEXT],
		['9.007199254740992e15', KEEP_TEXT],
		['-9007199254740992', KEEP_TEXT],
		['9007199254741000', KEEP_TEXT],
		['1e16', KEEP_TEXT],
		['12345678901234567891', KEEP_TEXT],
		['1e400', KEEP_TEXT],
		['1e999999999999999999999', KEEP_TEXT],
		// 18 significant digits and more never print back; below 10^-324 a number reads as 0.
		['0.123456789012345678', KEEP_TEXT],
		['1.00000000000000000001', KEEP_TEXT],
		['9.9e-325', KEEP_TEXT],
		['1e-400', KEEP_TEXT],
		['-1e-999999999999', KEEP_TEXT],
		// 16 and 17 significant digits, and the subnormal range: the double decides.
		['0.1234567890123456', CHECK],
		['0.12345678901234567', CHECK],
		['123456789012345.6', CHECK],
		['1.5e-308', CHECK],
		['5e-324', CHECK],
		['2.4703282292062328e-324', CHECK],
	])('%s: %s', (token, kind) => {
		const bytes = Buffer.from(token);
		expect(numberKind(bytes, 0, bytes.length)).toBe(kind);
		expect(decided(token)).toBe(definition(token));
	});
});

describe('what the double decides (tokens the digits leave open)', () => {
	const options = { seed: 20261126, numRuns: 5000 };
	const digits = (count: number) =>
		fc
			.array(fc.integer({ min: 0, max: 9 }), { minLength: count, maxLength: count })
			.map((ds) => ds.join(''));
	const scientific = (mantissa: string, exponent: number) =>
		`${mantissa[0]}${mantissa.length > 1 ? `.${mantissa.slice(1)}` : ''}e${exponent}`;
	/** The token for `x` at `count` significant digits, its last digit moved by `delta`. */
	const near = (x: number, count: number, delta: number) => {
		const [mantissa, exponent] = x.toExponential(count - 1).split('e');
		const moved = BigInt(mantissa.replace('.', '').replace('-', '')) + BigInt(delta);
		if (moved <= 0n) return String(x);
		return `${x < 0 ? '-' : ''}${scientific(moved.toString(), Number(exponent) + moved.toString().length - count)}`;
	};
	const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => x !== 0);

	it('16 and 17 significant digits, at every exponent', () => {
		const token = fc.tuple(
			fc.integer({ min: 1, max: 9 }),
			fc.integer({ min: 15, max: 16 }).chain(digits),
			fc.integer({ min: -330, max: 310 }),
			fc.boolean(),
		);
		fc.assert(
			fc.property(token, ([first, rest, exponent, negative]) => {
				const text = `${negative ? '-' : ''}${scientific(`${first}${rest}`, exponent)}`;
				expect(decided(text)).toBe(definition(text));
			}),
			options,
		);
	});

	it('doubles at their shortest, and the decimals next to them', () => {
		fc.assert(
			fc.property(
				finiteDouble,
				fc.integer({ min: 15, max: 17 }),
				fc.integer({ min: -3, max: 3 }),
				(x, count, delta) => {
					for (const text of [String(x), x.toExponential(), near(x, count, delta)])
						expect(decided(text)).toBe(definition(text));
				},
			),
			options,
		);
	});

	it('powers of two (whose rounding interval is narrower below) and their neighbours', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -1074, max: 1023 }),
				fc.integer({ min: 15, max: 17 }),
				fc.integer({ min: -2, max: 2 }),
				(exponent, count, delta) => {
					const x = 2 ** exponent;
					for (const text of [String(x), near(x, count, delta)])
						expect(decided(text)).toBe(definition(text));
				},
			),
			options,
		);
	});

	it('decimals exactly halfway between two doubles (ties: the even digit wins)', () => {
		// x = whole + odd/2^n holds n decimals, its last a 5: one digit less, rounded either way, is exactly halfway.
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 2 ** 20 }),
				fc.integer({ min: 1, max: 30 }),
				fc.nat(),
				fc.boolean(),
				fc.integer({ min: -20, max: 20 }),
				(whole, n, odd, up, shift) => {
					const scaled =
						BigInt(whole) * 2n ** BigInt(n) + BigInt(2 * (odd % 2 ** Math.min(n - 1, 20)) + 1);
					const exact = ((scaled * 10n ** BigInt(n)) / 2n ** BigInt(n)).toString();
					const cut = (BigInt(exact.slice(0, -1)) + (up ? 1n : 0n)).toString();
					if (cut.length < 2 || cut.length > 18) return;
					const text = scientific(
						cut,
						cut.length - 1 - n + shift - (exact.length - 1 - cut.length),
					);
					expect(decided(text)).toBe(definition(text));
				},
			),
			options,
		);
	});

	it('subnormal doubles, at every precision', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 2 ** 52 - 1 }),
				fc.integer({ min: 1, max: 17 }),
				fc.integer({ min: -2, max: 2 }),
				(k, count, delta) => {
					const x = k * 5e-324;
					for (const text of [String(x), x.toPrecision(count), near(x, count, delta)])
						expect(decided(text)).toBe(definition(text));
				},
			),
			options,
		);
	});
});
