import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { VERIFICATIONS, VERIFICATION_NAMES, showing } from './verifications';

const USE_TIMESTAMP = showing('useTimestamp');
const custom = (extra: Record<string, string[]> = {}) => ({
	show: { verification: showing('custom'), ...extra },
});

/** Tolerance (Seconds), where a signed timestamp is read: one property per condition to show it. */
const tolerance = (show: IDisplayOptions['show']): INodeProperties => ({
	displayName: 'Tolerance (Seconds)',
	name: 'toleranceSeconds',
	type: 'number',
	default: 300,
	typeOptions: { minValue: 1 },
	displayOptions: { show },
	description: 'How far the signed timestamp may be from the current time, in either direction',
});

/** Custom HMAC's settings: shown for it alone (where no other condition is given). */
const customHmacFields: INodeProperties[] = [
	{
		displayName: 'Algorithm',
		name: 'customAlgorithm',
		type: 'options',
		options: [
			{ name: 'HMAC-SHA1', value: 'sha1' },
			{ name: 'HMAC-SHA256', value: 'sha256' },
			{ name: 'HMAC-SHA512', value: 'sha512' },
		],
		default: 'sha256',
	},
	{
		displayName: 'Secret Encoding',
		name: 'customSecretEncoding',
		type: 'options',
		options: [
			{ name: 'Text (the Secret as Typed)', value: 'text' },
			{ name: 'Base64 (Optional Whsec_ Prefix)', value: 'base64' },
			{ name: 'Hex', value: 'hex' },
		],
		default: 'text',
		description: 'How the secret in the credential becomes the HMAC key',
	},
	{
		displayName: 'Signed Content',
		name: 'customSignedContent',
		type: 'string',
		default: '{timestamp}.{body}',
		required: true,
		description:
			'What the sender signs. Placeholders: {body} (the raw bytes, last), {timestamp}, {ID} (the delivery ID), {URL} (the URL called), {header.name} (a request header); anything else is literal text. Text between placeholders, and at most one of {ID}, {URL} and {header.…}, so that the signed bytes split one way only.',
	},
	{
		displayName: 'Signature Header',
		name: 'customSignatureHeader',
		type: 'string',
		default: 'x-signature',
		required: true,
		description:
			'Header carrying the signature; several names separated by commas are tried in order',
	},
	{
		displayName: 'Signature Format',
		name: 'customSignatureFormat',
		type: 'options',
		options: [
			{ name: 'Plain (Signatures Separated by Commas or Spaces)', value: 'plain' },
			{ name: 'Prefixed (e.g. V0=…)', value: 'prefixed' },
			{ name: 'Key=Value List (e.g. T=…,v1=…)', value: 'keyValue' },
			{ name: 'Versioned List (e.g. V1,… V1,…)', value: 'versioned' },
		],
		default: 'plain',
	},
	{
		displayName: 'Signature Label',
		name: 'customSignatureLabel',
		type: 'string',
		default: 'v1',
		displayOptions: custom({ customSignatureFormat: ['prefixed', 'keyValue', 'versioned'] }),
		description:
			'The prefix (e.g. v0=), the key of signature entries (e.g. v1) or the version label (e.g. v1)',
	},
	{
		displayName: 'Pair Separator',
		name: 'customPairSeparator',
		type: 'string',
		default: ',',
		displayOptions: custom({ customSignatureFormat: ['keyValue'] }),
	},
	{
		displayName: 'Timestamp Key',
		name: 'customTimestampKey',
		type: 'string',
		default: 't',
		displayOptions: custom({ customSignatureFormat: ['keyValue'] }),
		description: 'Key of the timestamp inside the signature header (e.g. t or ts)',
	},
	{
		displayName: 'Signature Encoding',
		name: 'customSignatureEncoding',
		type: 'options',
		options: [
			{ name: 'Hex or Base64', value: 'auto' },
			{ name: 'Hex', value: 'hex' },
			{ name: 'Base64', value: 'base64' },
		],
		default: 'auto',
	},
	{
		displayName: 'Timestamp Header',
		name: 'customTimestampHeader',
		type: 'string',
		default: 'x-timestamp',
		description:
			'Header carrying {timestamp} in unix seconds (not used when the signature header carries it)',
	},
	{
		displayName: 'ID Header',
		name: 'customIdHeader',
		type: 'string',
		default: 'webhook-id',
		description: 'Header carrying the delivery ID ({ID})',
	},
];

export const properties: INodeProperties[] = [
	{
		displayName:
			"Set-up: copy the Production URL above into the sender's webhook settings (for the Tenant API: the dashboard's Webhook URL field, then Generate), then put the signing secret it shows into a Tenant Webhook API credential. The Test URL is a different URL: a webhook registered for it gets its own secret — put that one into the credential's Test URL Signing Secret, which is accepted only while the editor listens.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'options',
		noDataExpression: true,
		options: VERIFICATION_NAMES.map((value) => ({
			name: VERIFICATIONS[value].name,
			value,
			description: VERIFICATIONS[value].description,
		})),
		default: 'hmacSha256',
		description:
			'How each delivery is checked before the workflow starts. Refused deliveries get a 401 and start nothing from the Verified output; the Refused output says why.',
	},
	{
		displayName:
			'Verification is off: anyone who knows or guesses this URL can start the workflow with any data. Use it only for a first test.',
		name: 'noVerificationWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { verification: ['none'] } },
	},
	{
		displayName:
			'The secret travels with every delivery, and nothing ties the body to it: anyone who sees one delivery (a proxy or a log) can send any body. Choose a signature when the sender offers one.',
		name: 'secretHeaderWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { verification: ['secretHeader'] } },
	},
	{
		displayName: 'Signature Header',
		name: 'signatureHeader',
		type: 'string',
		default: 'x-signature',
		required: true,
		displayOptions: { show: { verification: showing('signatureHeader') } },
		description:
			'Request header that carries the signature (case-insensitive; several names separated by commas are tried in order)',
	},
	{
		displayName: 'Header Carrying the Shared Key',
		name: 'sharedKeyHeader',
		type: 'string',
		default: 'x-webhook-secret',
		required: true,
		displayOptions: { show: { verification: showing('sharedKeyHeader') } },
		description:
			'Request header that carries the webhook secret (case-insensitive; several names separated by commas are tried in order). It is never copied into the output.',
	},
	{
		displayName: 'Use Timestamp',
		name: 'useTimestamp',
		type: 'boolean',
		default: false,
		displayOptions: { show: { verification: USE_TIMESTAMP } },
		description:
			'Whether the sender signs the timestamp, a dot and the raw body, and sends the timestamp in a header. Deliveries outside the tolerance window are refused, so a captured delivery cannot be replayed later.',
	},
	{
		displayName: 'Timestamp Header',
		name: 'timestampHeader',
		type: 'string',
		default: 'x-timestamp',
		required: true,
		displayOptions: { show: { verification: USE_TIMESTAMP, useTimestamp: [true] } },
		description: 'Request header that carries the timestamp, in unix seconds',
	},
	...customHmacFields.map((field) => ({ displayOptions: custom(), ...field })),
	tolerance({ verification: USE_TIMESTAMP, useTimestamp: [true] }),
	tolerance({ verification: showing('tolerance') }),
	{
		displayName: 'Signed URL',
		name: 'signedUrl',
		type: 'string',
		default: '',
		placeholder: 'https://n8n.example.com/webhook/…/webhook',
		displayOptions: { show: { verification: showing('custom') } },
		description:
			'For {URL} in Signed Content: the URL registered at the sender, when it differs from the Webhook URL n8n shows (e.g. behind a proxy that rewrites it). Empty: the Webhook URL of this node. The query string of each request is appended as received.',
	},
	{
		displayName: 'Body Format',
		name: 'bodyFormat',
		type: 'options',
		options: [
			{
				name: 'JSON',
				value: 'json',
				description: 'A JSON object; Content-Type JSON, +JSON, text/plain or none',
			},
			{
				name: 'Form Fields',
				value: 'form',
				description: 'Content-Type application/x-www-form-urlencoded',
			},
		],
		default: 'json',
		displayOptions: { show: { verification: showing('bodyFormat') } },
		description:
			'How the verified body is read. A delivery whose Content-Type says otherwise is refused with 415: the Content-Type is not signed, so the same signed bytes must never be read another way.',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'string',
		default: '',
		placeholder: 'transfers.created, accounts.*',
		description:
			'Event types that start the workflow, separated by commas. Empty accepts every event. An entry ending in * matches by prefix. Other deliveries are acknowledged with 200 and start nothing.',
	},
	{
		displayName: 'Respond',
		name: 'respond',
		type: 'options',
		options: [
			{
				name: 'On Receipt',
				value: 'onReceipt',
				description:
					'Answer 200 as soon as the delivery is verified. The sender never waits, but an event is lost if the workflow fails or its worker dies.',
			},
			{
				name: 'When the Workflow Finishes',
				value: 'whenFinished',
				description:
					'Answer 200 only after the workflow succeeded, and 500 when it failed, so the sender delivers the event again',
			},
		],
		default: 'onReceipt',
		description:
			'When the sender gets its answer. Refused deliveries, and deliveries the Events filter leaves out, are answered at once either way.',
	},
	{
		displayName:
			'The sender waits while the workflow runs: its timeout must be longer than the workflow takes (a sender that gives up delivers the event again, and the workflow runs again). Automatic Idempotency-Keys of the Tenant API node are the same for every delivery of an event, so a write is applied once however often the event arrives.',
		name: 'respondNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { respond: ['whenFinished'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Delivery ID Fields',
				name: 'idFields',
				type: 'string',
				default: '',
				placeholder: 'data.eventId',
				description:
					"Body fields (dot paths, separated by commas) that name the delivery in webhookDelivery.ID when the scheme signs no ID: name the event's ID, never the resource's (an order's ID is the same for all of its events). Empty, or a delivery without these fields: the SHA-256 of the body, the same for every delivery of the same bytes.",
			},
			{
				displayName: 'Event Path',
				name: 'eventPath',
				type: 'string',
				default: 'event',
				description:
					'Dot path of the event type in the body, used by the Events filter. When it holds no text, "type" is tried.',
			},
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the request headers to the output as webhookDelivery.unsignedHeaders (no signature covers them; Authorization, Cookie, the secret header and any header holding a secret are left out)',
			},
			{
				displayName: 'Include Query Parameters',
				name: 'includeQuery',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the URL query parameters to the output as webhookDelivery.unsignedQuery (not covered by the signature of most schemes)',
			},
			{
				displayName: 'Record Refused Deliveries',
				name: 'recordRefusals',
				type: 'boolean',
				default: false,
				description:
					'Whether a delivery refused at the Production URL also starts an execution whose Refused output says why (at most one per reason every 5 minutes, so forged requests cannot flood the executions list). The sender still gets its refusal and nothing runs from the Verified output. At the Test URL the editor always shows why.',
			},
		],
	},
];
