/**
 * The order of form fields by name, then value (Twilio's rule), in UTF-16 code units as Array.prototype.sort orders
 * strings, by LCP merge sort (Ng and Kakehi, "Merging String Sequences by Longest Common Prefixes", IPSJ Digital
 * Courier 4, 2008, https://doi.org/10.2197/ipsjdc.4.69): a merge sort that keeps beside each field how many bytes its
 * key shares with the one before it, and compares bytes only beyond what two keys are known to share. The native sort
 * compares every pair from the first code unit: a thousand fields sharing a long prefix would cost that prefix in each
 * of some ten thousand comparisons.
 *
 * The keys are UTF-8 bytes, read faster than a string's code units. Two valid UTF-8 keys that agree up to a byte are at
 * the same place of a character there, so bytes order them as their code points, but for one rank: UTF-16 puts the
 * characters beyond U+FFFF (four-byte sequences, surrogate pairs) before U+E000 to U+FFFF (lead bytes EE and EF).
 */

/**
 * Fields of one decoded UTF-8 body: field f is bytes starts[f] to ends[f], its name ending at separators[f] (where a
 * separator byte sits). Its key is those bytes with the separator below any other, so that a name sorts before the
 * longer names it begins.
 */
export interface FieldKeys {
	bytes: Uint8Array;
	/** The same bytes, read four at a time where two keys agree. */
	words: DataView;
	starts: Int32Array;
	separators: Int32Array;
	ends: Int32Array;
}

/** Each byte's rank in UTF-16 order: as it is, but four-byte lead bytes (F0 to F4) before EE and EF. */
const UTF16_RANK = Uint8Array.from({ length: 256 }, (_, byte) => {
	if (byte === 0xee || byte === 0xef) return byte + 5;
	return byte >= 0xf0 && byte <= 0xf4 ? byte - 2 : byte;
});

/** The fields in key order, and for each how many bytes its key shares with the one before it (0 for the first). */
export interface FieldOrder {
	order: Int32Array;
	shared: Int32Array;
}

export function sortFields(keys: FieldKeys): FieldOrder {
	const count = keys.starts.length;
	let runs: FieldOrder = {
		order: Int32Array.from({ length: count }, (_, f) => f),
		shared: new Int32Array(count),
	};
	let merged: FieldOrder = { order: new Int32Array(count), shared: new Int32Array(count) };
	for (let width = 1; width < count; width *= 2) {
		for (let start = 0; start < count; start += 2 * width)
			merge(
				keys,
				runs,
				merged,
				start,
				Math.min(count, start + width),
				Math.min(count, start + 2 * width),
			);
		[runs, merged] = [merged, runs];
	}
	return runs;
}

/** Merges the sorted runs from..middle and middle..end of `runs` into the same places of `into`. */
function merge(
	keys: FieldKeys,
	runs: FieldOrder,
	into: FieldOrder,
	from: number,
	middle: number,
	end: number,
): void {
	const { order, shared } = runs;
	let i = from;
	let j = middle;
	let out = from;
	// What the heads of both runs share with the last field out (at first, nothing).
	let sharedI = 0;
	let sharedJ = 0;
	while (i < middle && j < end) {
		// The head that shares more with the last field out comes first: the other one is above it from an earlier byte.
		let iFirst = sharedI > sharedJ;
		if (sharedI === sharedJ) {
			const difference = firstDifference(keys, order[i], order[j], sharedI);
			iFirst = difference >= 0;
			// What the one left behind shares with the one that goes out.
			if (iFirst) sharedJ = difference;
			else sharedI = ~difference;
		}
		if (iFirst) {
			into.order[out] = order[i];
			into.shared[out++] = sharedI;
			if (++i < middle) sharedI = shared[i];
		} else {
			into.order[out] = order[j];
			into.shared[out++] = sharedJ;
			if (++j < end) sharedJ = shared[j];
		}
	}
	copyRest(runs, into, i, middle, out, sharedI);
	copyRest(runs, into, j, end, out + middle - i, sharedJ);
}

/** Copies what is left of a run, from..end, to `out` on; the first of it shares `firstShared` with the field before. */
function copyRest(
	runs: FieldOrder,
	into: FieldOrder,
	from: number,
	end: number,
	out: number,
	firstShared: number,
): void {
	for (let i = from, o = out; i < end; i++, o++) {
		into.order[o] = runs.order[i];
		into.shared[o] = i === from ? firstShared : runs.shared[i];
	}
}

/**
 * Where the keys of fields a and b first differ, at or after `from` (they agree before it): that offset when a comes
 * first (or the keys are equal), its complement (~offset, negative) when b does.
 */
function firstDifference(keys: FieldKeys, a: number, b: number, from: number): number {
	const { bytes, starts, separators, ends } = keys;
	const aStart = starts[a];
	const bStart = starts[b];
	const aName = separators[a] - aStart;
	const bName = separators[b] - bStart;
	const aLength = ends[a] - aStart;
	const bLength = ends[b] - bStart;
	// Names of one length have their separators at one place, where the bytes agree: then the whole keys compare as bytes.
	const limit = aName === bName ? Math.min(aLength, bLength) : Math.min(aName, bName);
	const at = sameBytes(keys, aStart, bStart, from, limit);
	if (at < limit) return UTF16_RANK[bytes[aStart + at]] < UTF16_RANK[bytes[bStart + at]] ? at : ~at;
	// One name begins the other: it comes first, at its separator. Or one key begins the other: the same.
	const aFirst = aName === bName ? aLength <= bLength : aName < bName;
	return aFirst ? at : ~at;
}

/** The first offset from `from` below `limit` where the bytes at aStart and at bStart differ, or `limit`. */
function sameBytes(
	keys: FieldKeys,
	aStart: number,
	bStart: number,
	from: number,
	limit: number,
): number {
	const { bytes, words } = keys;
	// A few bytes one by one (most keys differ early), then four at a time.
	const oneByOne = Math.min(limit, from + 8);
	let at = from;
	while (at < oneByOne && bytes[aStart + at] === bytes[bStart + at]) at++;
	if (at < oneByOne || at === limit) return at;
	while (at + 4 <= limit && words.getUint32(aStart + at) === words.getUint32(bStart + at)) at += 4;
	while (at < limit && bytes[aStart + at] === bytes[bStart + at]) at++;
	return at;
}
