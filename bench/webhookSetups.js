'use strict';
/**
 * The trigger set-ups the webhook benchmark measures, one per signing scheme and setting that changes what a check
 * costs (the algorithm, a signed timestamp), each with how a sender signs for it. The clock is fixed (NOW), so the
 * signed timestamps and the trigger's "now" agree and every run takes the same path.
 */
const { hmac, sign, triggerParameters } = require('../sandbox/signing');

/** 2026-01-01T00:00:00Z, in unix seconds. */
const NOW = 1767225600;
const CONTENT_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded' };
const TEXT_KEYS = { current: 'whsec_sandbox', previous: 'whsec_previous', other: 'whsec_other' };
const whsec = (text) => `whsec_${Buffer.from(text).toString('base64')}`;
const BASE64_KEYS = {
	current: whsec('tenant-api-sandbox-signing-key'),
	previous: whsec('previous-signing-key'),
	other: whsec('another-signing-key'),
};

/** A set-up the sandbox signs for (sandbox/signing.js); `timestamp`: whether the sender signs one. */
const sandboxSetup = (name, scheme, { timestamp = false, extra = {} } = {}) => ({
	name,
	parameters: (format) => ({ ...triggerParameters(scheme, format), ...extra }),
	sign: (body, secret) =>
		sign({ secret, scheme, body, timestamp: timestamp ? NOW : undefined, id: 'msg_bench' }),
	keys: scheme === 'standard-webhooks' ? BASE64_KEYS : TEXT_KEYS,
});

/** The sandbox's Custom HMAC set-up with another algorithm, signed the way its settings say. */
function customSetup(algorithm) {
	const custom = triggerParameters('custom-hmac');
	const signed = String(custom.customSignedContent).replace('{timestamp}', String(NOW));
	if (!signed.endsWith('{body}')) throw new Error(`unexpected Custom HMAC template ${signed}`);
	return {
		name: `customHmac ${algorithm}`,
		parameters: (format) => ({
			...triggerParameters('custom-hmac', format),
			customAlgorithm: algorithm,
		}),
		sign: (body, secret) => ({
			[custom.customTimestampHeader]: String(NOW),
			[custom.customSignatureHeader]: `${custom.customSignatureLabel}${hmac(algorithm, secret, [
				signed.slice(0, -'{body}'.length),
				body,
			]).toString('hex')}`,
		}),
		keys: TEXT_KEYS,
	};
}

/** An HMAC of the body set-up with Use Timestamp on. */
const STAMPED = { timestamp: true, extra: { useTimestamp: true } };

/** Every set-up that refuses anything (None refuses nothing). */
const SETUPS = [
	sandboxSetup('hmacSha256', 'hmac-sha256-hex'),
	sandboxSetup('hmacSha256, timestamp', 'hmac-sha256-hex', STAMPED),
	sandboxSetup('hmacSha512', 'hmac-sha512-hex'),
	sandboxSetup('hmacSha512, timestamp', 'hmac-sha512-hex', STAMPED),
	sandboxSetup('timestampedSignatures', 'timestamped', { timestamp: true }),
	sandboxSetup('standardWebhooks', 'standard-webhooks', { timestamp: true }),
	customSetup('sha1'),
	customSetup('sha256'),
	customSetup('sha512'),
	sandboxSetup('secretHeader', 'secret-header'),
];

/** @param {string} name */
function setupNamed(name) {
	const setup = SETUPS.find((candidate) => candidate.name === name);
	if (!setup) throw new Error(`no webhook set-up named ${name}`);
	return setup;
}

/** A request as the trigger gets it. */
const requestOf = (body, headers, format) => ({
	rawBody: body,
	headers: { 'content-type': CONTENT_TYPES[format], ...headers },
	query: {},
	url: 'https://n8n.example.com/webhook/5b0c7e1a/webhook',
	nowSeconds: NOW,
});

/** The secrets of a credential with `count` secrets: the current one, then the previous one. */
const secretsOf = (setup, count) => [setup.keys.current, setup.keys.previous].slice(0, count);

module.exports = { NOW, SETUPS, requestOf, secretsOf, setupNamed };
