'use strict';
/**
 * The trigger set-ups the webhook benchmark measures, one per signing scheme and setting that changes what a check
 * costs (the algorithm, a signed timestamp), each with how a sender signs for it, and the requests it gets: signed
 * with the right key, with another key, or without a signature. The clock is fixed (NOW): the signed timestamps and
 * the trigger's "now" agree in every run, so every run measures the same path.
 */
const { hmac, sign, triggerParameters } = require('../sandbox/signing');

/** @typedef {import('../sandbox/signing').SigningScheme} SigningScheme */
/** @typedef {import('./builds').Parameters} Parameters */
/** @typedef {import('./builds').Request} Request */
/** @typedef {'json' | 'form'} BodyFormat */
/**
 * @typedef {{
 *   name: string,
 *   parameters: (format: BodyFormat) => Parameters,
 *   sign: (body: Buffer, secret: string) => Record<string, string>,
 *   keys: { current: string, previous: string, other: string },
 * }} Setup
 */

/** 2026-01-01T00:00:00Z, in unix seconds. */
const NOW = 1767225600;
const URL_ = 'https://n8n.example.com/webhook/5b0c7e1a/webhook';
const CONTENT_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

const TEXT_KEYS = { current: 'whsec_sandbox', previous: 'whsec_previous', other: 'whsec_other' };
/** @param {string} text */
const whsec = (text) => `whsec_${Buffer.from(text).toString('base64')}`;
const BASE64_KEYS = {
	current: whsec('tenant-api-sandbox-signing-key'),
	previous: whsec('previous-signing-key'),
	other: whsec('another-signing-key'),
};

/**
 * A set-up the sandbox signs for (sandbox/signing.js), with `extra` parameters; `timestamp`: whether the sender signs
 * one.
 * @param {string} name
 * @param {SigningScheme} scheme
 * @param {{ timestamp?: boolean, extra?: Parameters }} [options]
 * @returns {Setup}
 */
function sandboxSetup(name, scheme, { timestamp = false, extra = {} } = {}) {
	return {
		name,
		parameters: (format) => ({ ...triggerParameters(scheme, format), ...extra }),
		sign: (body, secret) =>
			sign({ secret, scheme, body, timestamp: timestamp ? NOW : undefined, id: 'msg_bench' }),
		keys: scheme === 'standard-webhooks' ? BASE64_KEYS : TEXT_KEYS,
	};
}

/**
 * The sandbox's Custom HMAC set-up with another algorithm, signed the way its settings say: the label and the hex
 * HMAC of the signed content (`{body}` last) in its signature header, the timestamp in its own.
 * @param {'sha1' | 'sha256' | 'sha512'} algorithm
 * @returns {Setup}
 */
function customSetup(algorithm) {
	const custom = triggerParameters('custom-hmac');
	const template = String(custom.customSignedContent);
	if (!template.endsWith('{body}')) throw new Error(`unexpected Custom HMAC template ${template}`);
	return {
		name: `customHmac ${algorithm}`,
		parameters: (format) => ({
			...triggerParameters('custom-hmac', format),
			customAlgorithm: algorithm,
		}),
		sign: (body, secret) => {
			const signed = template.slice(0, -'{body}'.length).replace('{timestamp}', String(NOW));
			const digest = hmac(algorithm, secret, [signed, body]).toString('hex');
			return {
				[String(custom.customTimestampHeader)]: String(NOW),
				[String(custom.customSignatureHeader)]: `${custom.customSignatureLabel}${digest}`,
			};
		},
		keys: TEXT_KEYS,
	};
}

/** Every set-up that a request nobody signed can be sent to (None refuses nothing, so it is not one of them). */
const SETUPS = [
	sandboxSetup('hmacSha256', 'hmac-sha256-hex'),
	sandboxSetup('hmacSha256, timestamp', 'hmac-sha256-hex', {
		timestamp: true,
		extra: { useTimestamp: true },
	}),
	sandboxSetup('hmacSha512', 'hmac-sha512-hex'),
	sandboxSetup('hmacSha512, timestamp', 'hmac-sha512-hex', {
		timestamp: true,
		extra: { useTimestamp: true },
	}),
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
	if (setup === undefined) throw new Error(`no set-up ${name}`);
	return setup;
}

/**
 * A request as the trigger gets it.
 * @param {Buffer} body
 * @param {Record<string, string>} headers
 * @param {BodyFormat} format
 * @returns {Request}
 */
function requestOf(body, headers, format) {
	return {
		rawBody: body,
		headers: { 'content-type': CONTENT_TYPES[format], ...headers },
		query: {},
		url: URL_,
		nowSeconds: NOW,
	};
}

/** The secrets of a credential with `count` secrets: the current one, then the previous one. @param {Setup} setup @param {number} count */
const secretsOf = (setup, count) => [setup.keys.current, setup.keys.previous].slice(0, count);

module.exports = { NOW, SETUPS, requestOf, secretsOf, setupNamed };
