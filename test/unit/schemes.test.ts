/**
 * The table of signing schemes (nodes/TenantApiTrigger/schemes.ts): the check each row builds from the node's
 * parameters, with defaults and with every setting it reads, and which settings the node shows for each row.
 */
import { properties } from '../../nodes/TenantApiTrigger/description';
import type { Check, SchemeName } from '../../nodes/TenantApiTrigger/schemes';
import {
	DEFAULT_TOLERANCE_SECONDS,
	SCHEMES,
	SCHEME_NAMES,
	defaultCheck,
	isSchemeName,
	schemeOf,
} from '../../nodes/TenantApiTrigger/schemes';
import { parameterReader } from '../harness/verifier';

const checkOf = (name: SchemeName, parameters: Record<string, unknown> = {}): Check =>
	SCHEMES[name].checkFrom(parameterReader(parameters));

/** The HMAC signing of a check (the test fails when the check is not an HMAC one). */
function signingOf(check: Check) {
	if (check.kind !== 'hmac') throw new Error(`not an HMAC check: ${check.kind}`);
	return check.signing;
}

/** What the body-HMAC rows share, with the defaults. */
const BODY_HMAC = {
	secretEncoding: 'text',
	signedContent: '{body}',
	signatureHeader: 'x-signature',
	signatureFormat: 'plain',
	signatureEncoding: 'auto',
	timestampHeader: '',
	idHeader: '',
	toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
};

describe('every row builds its check', () => {
	it.each(['hmacSha256', 'hmacSha512'] as const)(
		'%s: the HMAC of the body in x-signature; with Use Timestamp, of "{timestamp}.{body}"',
		(name) => {
			const algorithm = name === 'hmacSha256' ? 'sha256' : 'sha512';
			expect(signingOf(defaultCheck(name))).toMatchObject({ ...BODY_HMAC, algorithm });
			expect(
				signingOf(checkOf(name, { signatureHeader: ' X-Hub-Signature-256, x-sig ' })),
			).toMatchObject({ signatureHeader: 'X-Hub-Signature-256, x-sig' });
			expect(signingOf(checkOf(name, { useTimestamp: true }))).toMatchObject({
				signedContent: '{timestamp}.{body}',
				timestampHeader: 'x-timestamp',
			});
			expect(
				signingOf(
					checkOf(name, { useTimestamp: true, timestampHeader: 'x-ts', toleranceSeconds: 60 }),
				),
			).toMatchObject({ timestampHeader: 'x-ts', toleranceSeconds: 60 });
		},
	);

	it('timestampedSignatures: t=…,v1=… (hex) over "{timestamp}.{body}" in the header setting', () => {
		expect(signingOf(defaultCheck('timestampedSignatures'))).toMatchObject({
			algorithm: 'sha256',
			signedContent: '{timestamp}.{body}',
			signatureHeader: 'x-signature',
			signatureFormat: 'keyValue',
			signatureEncoding: 'hex',
			signatureLabel: 'v1',
			timestampKey: 't',
			pairSeparator: ',',
		});
		expect(
			signingOf(checkOf('timestampedSignatures', { signatureHeader: 'Stripe-Signature' })),
		).toMatchObject({ signatureHeader: 'Stripe-Signature' });
	});

	it('standardWebhooks: fixed headers, base64 key, "{id}.{timestamp}.{body}"; only the tolerance is a setting', () => {
		const fixed = {
			algorithm: 'sha256',
			secretEncoding: 'base64',
			signedContent: '{id}.{timestamp}.{body}',
			signatureHeader: 'webhook-signature',
			signatureFormat: 'versioned',
			signatureEncoding: 'base64',
			signatureLabel: 'v1',
			idHeader: 'webhook-id',
			timestampHeader: 'webhook-timestamp',
		};
		expect(signingOf(defaultCheck('standardWebhooks'))).toMatchObject(fixed);
		expect(
			signingOf(checkOf('standardWebhooks', { signatureHeader: 'x-other', toleranceSeconds: 30 })),
		).toEqual({ ...signingOf(defaultCheck('standardWebhooks')), toleranceSeconds: 30 });
		expect(SCHEMES.standardWebhooks.secretPrefix).toBe('whsec_');
	});

	it('customHmac: every field of the signing is a setting', () => {
		expect(signingOf(defaultCheck('customHmac'))).toEqual({
			algorithm: 'sha256',
			secretEncoding: 'text',
			signedContent: '{timestamp}.{body}',
			signatureHeader: 'x-signature',
			signatureFormat: 'plain',
			signatureEncoding: 'auto',
			signatureLabel: 'v1',
			pairSeparator: ',',
			timestampKey: 't',
			idHeader: 'webhook-id',
			timestampHeader: 'x-timestamp',
			toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
		});
		const check = checkOf('customHmac', {
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
		});
		expect(signingOf(check)).toEqual({
			algorithm: 'sha1',
			secretEncoding: 'hex',
			signedContent: 'v0:{timestamp}:{body}',
			signatureHeader: 'x-custom-signature',
			signatureFormat: 'keyValue',
			signatureEncoding: 'base64',
			signatureLabel: 'sig',
			pairSeparator: ';',
			timestampKey: 'ts',
			idHeader: 'x-delivery',
			timestampHeader: 'x-custom-timestamp',
			toleranceSeconds: 90,
		});
	});

	it('customHmac: an empty label is meant (signatures without one); an empty separator is the default', () => {
		expect(
			signingOf(checkOf('customHmac', { customSignatureLabel: '', customPairSeparator: '' })),
		).toMatchObject({ signatureLabel: '', pairSeparator: ',' });
	});

	it('secretHeader: the secret itself in the header setting (x-webhook-secret by default)', () => {
		expect(defaultCheck('secretHeader')).toEqual({
			kind: 'secretHeader',
			header: 'x-webhook-secret',
		});
		expect(checkOf('secretHeader', { sharedKeyHeader: 'x-token' })).toEqual({
			kind: 'secretHeader',
			header: 'x-token',
		});
	});

	it('none: no check', () => {
		expect(defaultCheck('none')).toEqual({ kind: 'none' });
	});

	it.each([
		['blank', '   '],
		['only commas', ' , ,'],
		['not text', 42],
	])('a header setting that is %s falls back to the default', (_name, value) => {
		expect(signingOf(checkOf('hmacSha256', { signatureHeader: value }))).toMatchObject({
			signatureHeader: 'x-signature',
		});
		expect(checkOf('secretHeader', { sharedKeyHeader: value })).toMatchObject({
			header: 'x-webhook-secret',
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

	it('only the rows of the table are scheme names (a removed or future value is not)', () => {
		expect(SCHEME_NAMES.every(isSchemeName)).toBe(true);
		for (const value of ['twilio', 'stripe', 'toString', '__proto__', '', undefined])
			expect(isSchemeName(value)).toBe(false);
	});
});

describe('the settings each row shows', () => {
	/** The node parameters a row's check reads, with Use Timestamp on and a key=value format (every branch). */
	function parametersRead(name: SchemeName): string[] {
		const read = new Set<string>();
		SCHEMES[name].checkFrom((parameter, fallback) => {
			read.add(parameter);
			if (parameter === 'useTimestamp') return true;
			return parameter === 'customSignatureFormat' ? 'keyValue' : fallback;
		});
		return [...read];
	}

	/** The node's settings shown for a row: every property whose display depends on the Verification and includes it. */
	const shownFor = (name: SchemeName) =>
		properties
			.filter((property) => property.type !== 'notice')
			.filter((property) =>
				(property.displayOptions?.show?.verification as string[] | undefined)?.includes(name),
			)
			.map((property) => property.name);

	it.each(SCHEME_NAMES)(
		'%s: the node shows exactly the parameters its check reads, Body Format and Signed URL where they apply',
		(name) => {
			const { settings } = schemeOf(name);
			const expected = [
				...parametersRead(name),
				...(settings.includes('bodyFormat') ? ['bodyFormat'] : []),
				...(settings.includes('custom') ? ['signedUrl'] : []),
			];
			expect(new Set(shownFor(name))).toEqual(new Set(expected));
		},
	);

	it('Body Format is offered for every row but Standard Webhooks (JSON only)', () => {
		expect(SCHEME_NAMES.filter((name) => !schemeOf(name).settings.includes('bodyFormat'))).toEqual([
			'standardWebhooks',
		]);
	});

	it('the Verification options are the rows, in order, with their names and descriptions', () => {
		const verification = properties.find((property) => property.name === 'verification');
		expect(verification?.options).toEqual(
			SCHEME_NAMES.map((value) => ({
				name: SCHEMES[value].name,
				value,
				description: SCHEMES[value].description,
			})),
		);
	});
});
