/**
 * Whether a JSON number token reads as written: JSON.parse gives the double nearest to its decimal value, and the token
 * "reads exactly" when that double prints back (Number::toString, the shortest decimal that reads as the double,
 * ECMA-262 #sec-numeric-types-number-tostring) as the same decimal value, and is not a whole number beyond
 * Number.MAX_SAFE_INTEGER. json.ts keeps every other token as its text.
 *
 * Most tokens are decided from their digits alone (numberKind): a nonzero decimal of at most 15 significant digits in
 * the range of normal doubles prints back as itself (IEEE 754 binary64 keeps 15 decimal digits, DBL_DIG), a whole
 * number is exact up to 2^53 - 1, 18 or more significant digits never print back (a double's shortest decimal has at
 * most 17), and magnitudes below 10^-324 read as 0. What remains (16 or 17 significant digits, or the subnormal range)
 * is decided from the double JSON.parse made (printsAsToken), without printing it: printing costs more than reading.
 */

/** The token reads exactly: JSON.parse's value is kept. */
export const EXACT = 0;
/** The token does not read exactly: it is kept as its text. */
export const KEEP_TEXT = 1;
/** Undecided by the digits: printsAsToken decides with the double JSON.parse read. */
export const CHECK = 2;
export type NumberKind = typeof EXACT | typeof KEEP_TEXT | typeof CHECK;

const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;

/** Exponents beyond this are clamped: far past any double's range, and still exact in the arithmetic below. */
const EXPONENT_LIMIT = 1e9;

/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const POWERS_OF_TEN = [
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
	1e18, 1e19, 1e20, 1e21, 1e22,
];

/** The digits of a number token, its sign and exponent left aside, as counts. */
interface Digits {
	/** Significant digits: from the first nonzero digit to the last one. 0 for a zero. */
	significant: number;
	/** Decimal exponent of the first significant digit (1234.5 → 3, 0.012 → -2). */
	leading: number;
	/** Positions of the first significant digit and of the last one. */
	first: number;
	last: number;
}

/** The digits of the token readNumberToken read last. */
const digits: Digits = { significant: 0, leading: 0, first: 0, last: 0 };

/** The exponent after `e` at `start`, clamped to ±EXPONENT_LIMIT; its end in `exponentEnd`. */
let exponentEnd = 0;
function readExponent(bytes: Uint8Array, start: number): number {
	let i = start;
	const negative = bytes[i] === MINUS;
	if (negative || bytes[i] === PLUS) i++;
	let value = 0;
	for (let c = bytes[i]; c >= ZERO && c <= NINE; c = bytes[++i])
		value = Math.min(value * 10 + (c - ZERO), EXPONENT_LIMIT);
	exponentEnd = i;
	return negative ? -value : value;
}

/** The significant digits from `first` to `last` as a number (exact up to 2^53; rounds upward of it). */
function digitsValue(bytes: Uint8Array, first: number, last: number): number {
	let value = 0;
	for (let i = first; i <= last; i++) if (bytes[i] !== DOT) value = value * 10 + (bytes[i] - ZERO);
	return value;
}

/** What the digits of the token read last decide (see the file's comment). */
function kindOfDigits(bytes: Uint8Array): NumberKind {
	const { significant, leading, first, last } = digits;
	if (significant === 0) return EXACT;
	const lowest = leading - significant + 1;
	if (lowest >= 0) {
		if (leading <= 14) return EXACT;
		if (leading >= 16) return KEEP_TEXT;
		// 16 integer digits: at most 2^53 - 1. The product rounds, but never across 2^53.
		return digitsValue(bytes, first, last) * POWERS_OF_TEN[lowest] <= Number.MAX_SAFE_INTEGER
			? EXACT
			: KEEP_TEXT;
	}
	if (significant >= 18 || leading <= -325) return KEEP_TEXT;
	if (significant <= 15 && leading >= -307) return EXACT;
	return CHECK;
}

/**
 * Reads the number token that starts at `start` in a text JSON.parse accepted, in one pass: returns its end times 4
 * plus what its digits decide (EXACT, KEEP_TEXT or CHECK; see the file's comment).
 */
export function readNumberToken(bytes: Uint8Array, start: number): number {
	let i = bytes[start] === MINUS ? start + 1 : start;
	let count = 0;
	let whole = -1;
	let firstIndex = -1;
	let lastIndex = -1;
	let c = bytes[i];
	for (;;) {
		if (c >= ZERO && c <= NINE) {
			if (c !== ZERO) {
				if (firstIndex < 0) {
					firstIndex = count;
					digits.first = i;
				}
				lastIndex = count;
				digits.last = i;
			}
			count++;
		} else if (c === DOT) {
			whole = count;
		} else {
			break;
		}
		c = bytes[++i];
	}
	let exponent = 0;
	if (c === LOWER_E || c === UPPER_E) {
		exponent = readExponent(bytes, i + 1);
		i = exponentEnd;
	}
	digits.significant = firstIndex < 0 ? 0 : lastIndex - firstIndex + 1;
	digits.leading = (whole < 0 ? count : whole) - 1 - firstIndex + exponent;
	return i * 4 + kindOfDigits(bytes);
}

/** What the digits of the token bytes[start, end) decide (readNumberToken, for one token). */
export function numberKind(bytes: Uint8Array, start: number, end: number): NumberKind {
	const read = readNumberToken(bytes, start);
	if (read >> 2 !== end) throw new Error('not one number token');
	return (read & 3) as NumberKind;
}

/*
 * Deciding with the double. A token left to CHECK is a nonzero decimal T = D·10^-p (D its s significant digits, last
 * digit r ≠ 0, p ≥ 1) and x the double nearest to it. Number::toString prints the decimal with the fewest digits
 * among those that read as x, and of those the closest to x (the even one on a tie). So x prints as T when:
 *  (a) T is the closest to x of the s-digit decimals that read as x: where W = x·10^p − D, |W| < 1/2, or = 1/2
 *      with r even, or the neighbour D ± 1 on x's side does not read as x (below a power of two, whose lower
 *      neighbour is closer, the interval is narrower below x);
 *  (b) no decimal of s − 1 digits reads as x: neither D − r nor D − r + 10 (the nearest ones, in units of 10^-p)
 *      lies in x's rounding interval, x ± G with G = half of x's spacing·10^p (G/2 below a power of two, whose lower
 *      neighbour is closer), bounds included when x's significand is even.
 * x = M·2^k exactly, so x·10^p = M·5^p·2^(k+p): 5^p is a sum of three doubles (from BigInt, once), each product
 * M·f is split exactly into two doubles (Dekker's TwoProduct with Veltkamp's splitting, Dekker 1971) and the terms
 * are summed with Knuth's TwoSum, which keeps each rounding error: W is known to within 2^-96. Every comparison that
 * falls within EPSILON of its threshold is an exact equality when p ≤ 24 (all quantities are then multiples of
 * 2^-61), and cannot be one beyond (5^p would have to divide a number below 2^61): there printing decides.
 */

const MAX_P = 340;
/** Per power: f0, f0's halves, f1, f1's halves, f2, f2's halves. */
const FIELDS = 9;
/** Veltkamp's constant for doubles: 2^27 + 1. */
const SPLITTER = 134217729;
const EPSILON = 2 ** -90;
/** Up to here an exponent 5^p allows exact ties and exact interval bounds (see above). */
const EXACT_TIES_UP_TO_P = 24;
const TWO_TO_52 = 4503599627370496;

const YES = 0;
const NO = 1;
const UNDECIDED = 2;
type Verdict = typeof YES | typeof NO | typeof UNDECIDED;

let fivePowers: Float64Array | undefined;

/** The high half of f's Veltkamp split (the low half is f minus it). */
function highHalf(f: number): number {
	const c = f * SPLITTER;
	return c - (c - f);
}

/** 5^0 … 5^MAX_P, each as three doubles and their halves (see FIELDS). Built on first use. */
function fivePowerTable(): Float64Array {
	if (fivePowers !== undefined) return fivePowers;
	const table = new Float64Array((MAX_P + 1) * FIELDS);
	const five = BigInt(5);
	let power = BigInt(1);
	for (let p = 0; p <= MAX_P; p++, power *= five) {
		let rest = power;
		for (let part = 0; part < 3; part++) {
			const f = Number(rest);
			rest -= BigInt(f);
			const at = p * FIELDS + part * 3;
			table[at] = f;
			table[at + 1] = highHalf(f);
			table[at + 2] = f - highHalf(f);
		}
	}
	fivePowers = table;
	return table;
}

/** The rounding error of s = a + b (Knuth's TwoSum): a + b = s + error exactly. */
function sumError(a: number, b: number, s: number): number {
	const bPart = s - a;
	return a - (s - bPart) + (b - bPart);
}

/** The rounding error of p = a·b, a = ah + al and b = bh + bl split (Dekker's TwoProduct): a·b = p + error exactly. */
function productError(ah: number, al: number, bh: number, bl: number, p: number): number {
	return ah * bh - p + ah * bl + al * bh + al * bl;
}

const bits = new DataView(new ArrayBuffer(8));

/** 2^j, for j a normal exponent. */
function powerOfTwo(j: number): number {
	bits.setUint32(0, (j + 1023) << 20);
	bits.setUint32(4, 0);
	return bits.getFloat64(0);
}

/** ≈ (sum + comp + add) − (g0 + g1 + g2), to within 2^-93 when the terms are as in shortestIsToken. */
function excess(
	sum: number,
	comp: number,
	add: number,
	g0: number,
	g1: number,
	g2: number,
): number {
	const h = sum + add;
	const l = sumError(sum, add, h);
	const h2 = h - g0;
	const l2 = sumError(h, -g0, h2);
	return h2 + (l + l2 + comp - g1 - g2);
}

/** Whether a decimal `margin` units beyond the bound of x's rounding interval reads as x (≤ 0: inside or on it). */
function readsAsX(margin: number, exactTies: boolean, evenSignificand: boolean): Verdict {
	if (margin > EPSILON) return NO;
	if (margin < -EPSILON) return YES;
	if (!exactTies) return UNDECIDED;
	return evenSignificand ? YES : NO;
}

/** Conditions (a) and (b) above for T = digits[first, last]·10^-p and x = ax > 0 (see the comment before MAX_P). */
function shortestIsToken(
	ax: number,
	bytes: Uint8Array,
	first: number,
	last: number,
	significant: number,
	p: number,
): Verdict {
	let high = 0;
	let low = 0;
	let seen = 0;
	for (let i = first; i <= last; i++) {
		if (bytes[i] === DOT) continue;
		if (seen++ < significant - 9) high = high * 10 + (bytes[i] - ZERO);
		else low = low * 10 + (bytes[i] - ZERO);
	}
	// D = high + low: high·10^9 < 10^17 is exact (high·5^9 < 2^53).
	high *= 1e9;
	const r = bytes[last] - ZERO;

	bits.setFloat64(0, ax);
	const top = bits.getUint32(0);
	const biased = top >>> 20;
	const fraction = (top & 0xfffff) * 4294967296 + bits.getUint32(4);
	const m = biased === 0 ? fraction : fraction + TWO_TO_52;
	const j = (biased === 0 ? 1 : biased) - 1075 + p;
	if (j < -1020 || j > 1023) return UNDECIDED;
	const scale = powerOfTwo(j);

	const table = fivePowerTable();
	const at = p * FIELDS;
	const f0 = table[at];
	const f1 = table[at + 3];
	const f2 = table[at + 6];
	const mHigh = highHalf(m);
	const mLow = m - mHigh;
	// W = m·(f0 + f1 + f2)·2^j − high − low, as sum + comp. m·f0·2^j and high agree to a factor of 2: exact.
	const p0 = m * f0;
	let sum = p0 * scale - high;
	let next = sum - low;
	let comp = sumError(sum, -low, next);
	sum = next;
	let term = productError(mHigh, mLow, table[at + 1], table[at + 2], p0) * scale;
	next = sum + term;
	comp += sumError(sum, term, next);
	sum = next;
	if (f1 !== 0) {
		const p1 = m * f1;
		term = p1 * scale;
		next = sum + term;
		comp += sumError(sum, term, next);
		sum = next;
		term = productError(mHigh, mLow, table[at + 4], table[at + 5], p1) * scale + m * f2 * scale;
		next = sum + term;
		comp += sumError(sum, term, next);
		sum = next;
	}

	const exactTies = p <= EXACT_TIES_UP_TO_P;
	const even = m % 2 === 0;
	// G = f·2^(j−1); below a power of two (not the smallest normal) the interval's lower half is G/2.
	const half = scale / 2;
	const lowerHalf = m === TWO_TO_52 && biased > 1 ? half / 2 : half;

	// (a) |W| − 1/2 ≥ 0: the neighbour D ± 1 on x's side is as close or closer; it wins if it reads as x (D + 1
	// always does when D reads as x from below; D − 1 may not below a power of two).
	const nearest = sum >= 0 ? sum - 0.5 + comp : -sum - 0.5 - comp;
	if (nearest >= -EPSILON) {
		const tie = nearest <= EPSILON;
		if (tie && !exactTies) return UNDECIDED;
		if (!tie || r % 2 === 1) {
			const neighbour =
				sum >= 0
					? YES
					: readsAsX(
							excess(sum, comp, 1, f0 * lowerHalf, f1 * lowerHalf, f2 * lowerHalf),
							exactTies,
							even,
						);
			if (neighbour !== NO) return neighbour === YES ? NO : UNDECIDED;
		}
	}
	// (b) the nearest decimals of s − 1 digits: D − r below x by W + r units, D − r + 10 above by 10 − r − W.
	const below = readsAsX(
		excess(sum, comp, r, f0 * lowerHalf, f1 * lowerHalf, f2 * lowerHalf),
		exactTies,
		even,
	);
	if (below !== NO) return below === YES ? NO : UNDECIDED;
	const above = readsAsX(
		excess(-sum, -comp, 10 - r, f0 * half, f1 * half, f2 * half),
		exactTies,
		even,
	);
	if (above !== NO) return above === YES ? NO : UNDECIDED;
	return YES;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A nonzero finite decimal as sign, significant digits (no leading or trailing zeros) and exponent. */
function canonical(text: string): string | undefined {
	const match = NUMBER.exec(text);
	if (!match) return undefined;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	const all = (whole + fraction).replace(/^0+/, '');
	const digits = all.replace(/0+$/, '');
	return `${sign}${digits}e${Number(exponent) - fraction.length + all.length - digits.length}`;
}

/** The definition itself, by printing x: for the few tokens the arithmetic leaves undecided. */
function printsAsText(x: number, token: string): boolean {
	if (!Number.isFinite(x) || (Number.isInteger(x) && !Number.isSafeInteger(x))) return false;
	// Zero is exact only when every digit is zero (1e-400 also reads as 0); a nonzero double has a finite exponent.
	if (x === 0) return /^-?[0.]+(?:[eE]|$)/.test(token);
	const printed = String(x);
	return printed === token || canonical(printed) === canonical(token);
}

/** The token's text (a number token is ASCII). */
export function tokenText(bytes: Uint8Array, start: number, end: number): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** Verdicts for one significant digit (only in the subnormal range: at most 9 × 17 values), by printing once. */
const oneDigitVerdicts = new Map<number, boolean>();

/** Whether `x`, the double JSON.parse read from the CHECK token bytes[start, end), prints as the token's decimal. */
export function printsAsToken(x: number, bytes: Uint8Array, start: number, end: number): boolean {
	// A CHECK token is not zero: reading 0 means it underflowed.
	if (x === 0 || !Number.isFinite(x)) return false;
	readNumberToken(bytes, start);
	const { significant, leading, first, last } = digits;
	const p = significant - 1 - leading;
	if (significant === 1) {
		const key = p * 10 + bytes[first] - ZERO;
		let verdict = oneDigitVerdicts.get(key);
		if (verdict === undefined) {
			verdict = printsAsText(Math.abs(x), `${bytes[first] - ZERO}e-${p}`);
			oneDigitVerdicts.set(key, verdict);
		}
		return verdict;
	}
	if (p >= 1 && p <= MAX_P) {
		const verdict = shortestIsToken(Math.abs(x), bytes, first, last, significant, p);
		if (verdict !== UNDECIDED) return verdict === YES;
	}
	return printsAsText(x, tokenText(bytes, start, end));
}
