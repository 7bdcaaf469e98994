/** What the property-based models share (deliveries.ts, urls.ts): verdicts and properties that report each one. */
import fc from 'fast-check';

/** What happened to one case; `dims` are the setting values it exercised (for the coverage report). */
export type Verdict = (
	| { ok: true; outcome: string }
	| { ok: false; outcome: string; why: string }
) & { dims?: Array<[string, string]> };

/** A position in [0, 1), uniform: fast-check's doubles lean towards 0, which would always pick the first byte or path. */
export const fraction = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);
/** The entry of a list at a `fraction`. */
export const entryAt = <T>(list: readonly T[], position: number): T =>
	list[Math.floor(position * list.length)];
export const pick = <T>(...values: T[]) => fc.constantFrom(...values);

type Split<S extends string> = S extends `${infer Head}|${infer Tail}`
	? [Head, ...Split<Tail>]
	: [S];
/** The entries of a list written `a|b|c` on one line, each its own string type (`Op<typeof LIST>` names them). */
export const listOf = <S extends string>(text: S) => text.split('|') as Split<S>;

/** The value after `--<name>` on a command line (campaign.ts, mutants.ts), or undefined. */
export function argument(argv: string[], name: string): string | undefined {
	const at = argv.indexOf(`--${name}`);
	return at === -1 ? undefined : argv[at + 1];
}

/** A judge for a unit test: throws on a verdict that broke the rule. */
export function holds(verdict: Verdict): void {
	if (!verdict.ok) throw new Error(`${verdict.outcome}: ${verdict.why}`);
}

/** A property whose every verdict goes to `judge`, which says whether the case kept the rule (or throws when it did not). */
interface CaseProperty {
	name: string;
	/** The part of its group's cases it gets. */
	share: number;
	property(judge: (verdict: Verdict) => boolean | void): fc.IProperty<[unknown]>;
}

/** A check's verdict; a check that throws breaks the rule, with its stack as the reason. */
function checked<T>(check: (value: T) => Verdict, value: T): Verdict {
	try {
		return check(value);
	} catch (error) {
		return threw(error);
	}
}

export const threw = (error: unknown): Verdict => ({
	ok: false,
	outcome: 'threw',
	why: (error as Error)?.stack ?? String(error),
});

export function caseProperty<T>(
	name: string,
	share: number,
	arbitrary: fc.Arbitrary<T>,
	check: (value: T) => Verdict,
): CaseProperty {
	return {
		name,
		share,
		property: (judge) =>
			fc.property(arbitrary as fc.Arbitrary<unknown>, (value) => judge(checked(check, value as T))),
	};
}

/** Properties reported together: a scheme and body format of the trigger, a kind of URL of the action node. */
export interface PropertyGroup {
	/** What `npm run fuzz -- --only <key>` selects. */
	key: string;
	label: string;
	properties: CaseProperty[];
}
