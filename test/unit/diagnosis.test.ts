/**
 * Every refusal reason the trigger can give is explained on the Refused output (diagnosis.ts), never by the
 * fallback, and no explanation holds the secret or the body.
 */
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import { settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { parameterReader } from '../harness/verifier';

/** The reasons of verification (verify.ts), of reading a verified body (body.ts, read.ts), of the identity, and of the node. */
const REASONS = [
	'missing_signature', 'malformed_signature', 'signature_mismatch', 'missing_timestamp', 'invalid_timestamp', 'timestamp_out_of_window',
	'missing_id', 'missing_url', 'missing_body_hash', 'body_hash_mismatch', 'unreadable_body', 'body_too_large', 'unexpected_field',
	'malformed_items', 'invalid_item_field', 'duplicate_item', 'missing_secret_header', 'secret_mismatch', 'no_secret_configured',
	'invalid_secret', 'invalid_scheme', 'internal_error', 'unsupported_media_type', 'empty_body', 'not_utf8', 'invalid_json',
	'not_an_object', 'invalid_form', 'raw_body_unavailable', 'reserved_field', 'malformed_id', 'unprotected_id',
	'unknown_verification', 'no_credential_selected', 'credential_unavailable',
];

const SECRET = 'whsec_diagnosis_secret';
const BODY = Buffer.from('{"id":"evt_1","card":"4111111111111111"}');
const facts = {
	verification: 'hmacSha256',
	config: settingsFromParameters('hmacSha256', parameterReader({}), [SECRET], [SECRET]).config,
	headers: { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(32) },
	rawBody: BODY,
	testUrl: false,
	nowSeconds: 1_700_000_000,
};
const fallback = diagnose({ status: 401, reason: 'internal_error' }, facts).summary;

it.each(REASONS)('%s is explained', (reason) => {
	const diagnosis = diagnose({ status: 401, reason }, facts);
	if (reason !== 'internal_error') expect(diagnosis.summary).not.toBe(fallback);
	expect(diagnosis).toMatchObject({ reason, summary: expect.stringMatching(/\.$/), action: expect.stringMatching(/\S/) });
	const shown = JSON.stringify(diagnosis);
	for (const hidden of [SECRET, '4111111111111111', 'ab'.repeat(32)]) expect(shown).not.toContain(hidden);
});
