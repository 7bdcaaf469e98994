/**
 * The table of Verifications (nodes/TenantApiTrigger/verifications.ts): the Verification each row makes of the node's
 * parameters (read by settings.ts), with defaults and with every setting it reads, and which settings the node shows
 * for each row.
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
const defaultCheck = (name: VerificationName) => checkOf(name);

/** An HMAC Verification (the test fails when it is not one). */
function signingOf(verification: Verification) {
	if (verification.kind !== 'hmac')
		throw new Error(`not an HMAC Verification: ${verification.kind}`);
	return verification;
}

/** What the body-HMAC rows share, with the defaults. */
const BODY_HMAC = {
	secretEncoding: 'text',
	signedContent: '{body}',
	signatureHeader: ['x-signature'],
	signatureFormat: 'plain',
	signatureEncoding: 'auto',
	timestampHeader: [],
	idHeader: [],
	toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
};

describe('every row makes its Verification', () => {
	it.each(['hmacSha256', 'hmacSha512'] as const)(
		'%s: the HMAC of the body in x-signature; with Use Timestamp, of "{timestamp}.{body}"',
		(name) => {
			const algorithm = name === 'hmacSha256' ? 'sha256' : 'sha512';
			expect(signingOf(defaultCheck(name))).toMatchObject({ ...BODY_HMAC, algorithm });
			expect(
				signingOf(checkOf(name, { signatureHeader: ' X-Hub-Signature-256, ,x-sig ' })),
			).toMatchObject({ signatureHeader: ['x-hub-signature-256', 'x-sig'] });
			expect(signingOf(checkOf(name, { useTimestamp: true }))).toMatchObject({
				signedContent: '{timestamp}.{body}',
				timestampHeader: ['x-timestamp'],
			});
			expect(
				signingOf(
					checkOf(name, { useTimestamp: true, timestampHeader: 'x-ts', toleranceSeconds: 60 }),
				),
			).toMatchObject({ timestampHeader: ['x-ts'], toleranceSeconds: 60 });
		},
	);

	// What Standard Webhooks and t=…,v1=… sign is proven against their libraries (interop.test.ts).
	it('standardWebhooks: only the tolerance is a setting', () => {
		expect(
			signingOf(checkOf('standardWebhooks', { signatureHeader: 'x-other', toleranceSeconds: 30 })),
		).toEqual({ ...signingOf(defaultCheck('standardWebhooks')), toleranceSeconds: 30 });
		expect(VERIFICATIONS.standardWebhooks.secretPrefix).toBe('whsec_');
	});

	it('customHmac: every field of an HMAC Verification is a setting, with defaults', () => {
		const parameters = {
			customAlgorithm: 'sha1',
			customSecretEncoding: 'hex',
			customSignedContent: ' v0:{timestamp}:{body} ',
			customSignatureHeader: 'x-custom-signature',
			customSignatureFormat: 'keyValue',
			customSignatureEncoding: 'base64',
			customSignatureLabel: 'sig',
			customPairSeparator: ';',
			customTimestampKey: 'ts',
			customIdHeader: 'x-delivery',
			customTimestampHeader: 'x-custom-timestamp',
			toleranceSeconds: 90,
		};
		const set = {
			algorithm: 'sha1',
			secretEncoding: 'hex',
			signedContent: 'v0:{timestamp}:{body}',
			signatureHeader: ['x-custom-signature'],
			signatureFormat: 'keyValue',
			signatureEncoding: 'base64',
			signatureLabel: 'sig',
			pairSeparator: ';',
			timestampKey: 'ts',
			idHeader: ['x-delivery'],
			timestampHeader: ['x-custom-timestamp'],
			toleranceSeconds: 90,
		};
		expect(signingOf(checkOf('customHmac', parameters))).toEqual({
			name: 'customHmac',
			kind: 'hmac',
			...set,
		});
		expect(signingOf(defaultCheck('customHmac'))).toEqual({
			name: 'customHmac',
			kind: 'hmac',
			...BODY_HMAC,
			algorithm: 'sha256',
			signedContent: '{timestamp}.{body}',
			signatureLabel: 'v1',
			pairSeparator: ',',
			timestampKey: 't',
			idHeader: ['webhook-id'],
			timestampHeader: ['x-timestamp'],
		});
	});

	it('customHmac: an empty label is meant (signatures without one); an empty separator is the default', () => {
		expect(
			signingOf(checkOf('customHmac', { customSignatureLabel: '', customPairSeparator: '' })),
		).toMatchObject({ signatureLabel: '', pairSeparator: ',' });
	});

	it('secretHeader: the secret itself in the header setting (x-webhook-secret by default)', () => {
		expect(defaultCheck('secretHeader')).toEqual({
			name: 'secretHeader',
			kind: 'secretHeader',
			header: ['x-webhook-secret'],
		});
		expect(checkOf('secretHeader', { sharedKeyHeader: 'X-Token' })).toEqual({
			name: 'secretHeader',
			kind: 'secretHeader',
			header: ['x-token'],
		});
	});

	it('none: no check', () => {
		expect(defaultCheck('none')).toEqual({ name: 'none', kind: 'none' });
	});

	it.each([
		['blank', '   '],
		['only commas', ' , ,'],
		['not text', 42],
	])('a header setting that is %s falls back to the default', (_name, value) => {
		expect(signingOf(checkOf('hmacSha256', { signatureHeader: value }))).toMatchObject({
			signatureHeader: ['x-signature'],
		});
		expect(checkOf('secretHeader', { sharedKeyHeader: value })).toMatchObject({
			header: ['x-webhook-secret'],
		});
	});

	it.each([0, -5, 'soon', Number.NaN, Number.POSITIVE_INFINITY])(
		'a tolerance of %p is the default 300 s',
		(toleranceSeconds) => {
			expect(signingOf(checkOf('timestampedSignatures', { toleranceSeconds }))).toMatchObject({
				toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
			});
		},
	);

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
