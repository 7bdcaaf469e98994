/**
 * The table of Verifications (nodes/TenantApiTrigger/verifications.ts): the Verification each row makes of values the
 * property campaign never saves, the names of the rows, and which settings the node shows for each row.
 */
import { properties } from '../../nodes/TenantApiTrigger/description';
import { readSettings, settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import type { Verification, VerificationName } from '../../nodes/TenantApiTrigger/verifications';
import {
	VERIFICATIONS,
	VERIFICATION_NAMES,
	isVerificationName,
} from '../../nodes/TenantApiTrigger/verifications';
import { parameterReader } from '../harness/verifier';

const DEFAULT_TOLERANCE_SECONDS = 300;

const checkOf = (name: VerificationName, parameters: Record<string, unknown> = {}): Verification =>
	settingsFromParameters(name, parameterReader(parameters)).verification;

/** An HMAC Verification (the test fails when it is not one). */
function signingOf(verification: Verification) {
	if (verification.kind !== 'hmac')
		throw new Error(`not an HMAC Verification: ${verification.kind}`);
	return verification;
}

/**
 * What each row makes of the node's parameters (defaults, header lists in any case with stray commas and blanks,
 * Use Timestamp, every Custom HMAC field, a tolerance not above 0) is proven end to end by the property campaign:
 * its senders sign as each setting says (test/property/settings.ts, written from the description), and every
 * genuine delivery must start. Here the values it never saves.
 */
describe('every row makes its Verification', () => {
	it('customHmac: an empty label is meant (signatures without one); an empty separator is the default', () => {
		expect(
			signingOf(checkOf('customHmac', { customSignatureLabel: '', customPairSeparator: '' })),
		).toMatchObject({ signatureLabel: '', pairSeparator: ',' });
	});

	it('a header setting that is not text falls back to the default, so does a tolerance that is no number', () => {
		expect(signingOf(checkOf('hmacSha256', { signatureHeader: 42 }))).toMatchObject({
			signatureHeader: ['x-signature'],
		});
		expect(checkOf('secretHeader', { sharedKeyHeader: 42 })).toMatchObject({
			header: ['x-webhook-secret'],
		});
		for (const toleranceSeconds of [Number.NaN, Number.POSITIVE_INFINITY])
			expect(signingOf(checkOf('timestampedSignatures', { toleranceSeconds }))).toMatchObject({
				toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
			});
	});

	it('only the rows of the table are Verification names (a removed or future value is not)', () => {
		expect(VERIFICATION_NAMES.every(isVerificationName)).toBe(true);
		for (const value of ['twilio', 'stripe', 'toString', '__proto__', '', undefined])
			expect(isVerificationName(value)).toBe(false);
	});

	it.each(['stripe', 'slack', 'twilio', 'adyenPayments'])(
		'a removed Verification saved in a workflow (%s) makes settings that refuse every delivery',
		async (saved) => {
			const node = {
				read: parameterReader({ verification: saved }),
				credential: () => Promise.resolve({ signingSecret: 'whsec_saved' }),
			};
			expect((await readSettings(node, false)).settings).toEqual({
				failure: 'unknown_verification',
				saved,
				credentialSecrets: ['whsec_saved'],
			});
		},
	);
});

describe('the settings each row shows', () => {
	/** The node parameters read for a row, with Use Timestamp on and a key=value format (every branch). */
	function parametersRead(name: VerificationName): string[] {
		const read = new Set<string>();
		settingsFromParameters(name, (parameter, fallback) => {
			read.add(parameter);
			if (parameter === 'useTimestamp') return true;
			return parameter === 'customSignatureFormat' ? 'keyValue' : fallback;
		});
		return [...read];
	}

	/** The node's settings shown for a row: every property whose display depends on the Verification and includes it. */
	const shownFor = (name: VerificationName) =>
		properties
			.filter((property) => property.type !== 'notice')
			.filter((property) =>
				(property.displayOptions?.show?.verification as string[] | undefined)?.includes(name),
			)
			.map((property) => property.name);

	it.each(VERIFICATION_NAMES)(
		'%s: the settings read exactly the parameters the node shows for it, and Events and Options',
		(name) => {
			expect(new Set(parametersRead(name))).toEqual(
				new Set([...shownFor(name), 'events', 'options']),
			);
		},
	);

	it('Body Format is offered for every row but Standard Webhooks (JSON only)', () => {
		expect(
			VERIFICATION_NAMES.filter((name) => !VERIFICATIONS[name].settings.includes('bodyFormat')),
		).toEqual(['standardWebhooks']);
	});

	it('the Verification options are the rows, in order, with their names and descriptions', () => {
		const verification = properties.find((property) => property.name === 'verification');
		expect(verification?.options).toEqual(
			VERIFICATION_NAMES.map((value) => ({
				name: VERIFICATIONS[value].name,
				value,
				description: VERIFICATIONS[value].description,
			})),
		);
	});
});
