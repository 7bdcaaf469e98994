import type { INodeProperties } from 'n8n-workflow';

const HMAC_MODES = ['hmacSha256', 'hmacSha512'];

export const properties: INodeProperties[] = [
	{
		displayName:
			'Set-up: copy the Production URL above into the Webhook URL field of the service dashboard and choose Generate, then put the generated webhook Secret Key into the credential\'s Webhook Secret. The Test URL is a different URL: a webhook registered for it gets its own secret — put that one into Previous Webhook Secret so both are accepted.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'HMAC-SHA256 Signature',
				value: 'hmacSha256',
				description: 'HMAC-SHA256 of the exact request bytes with the webhook secret, hex or base64, optional sha256= prefix',
			},
			{
				name: 'HMAC-SHA512 Signature',
				value: 'hmacSha512',
				description: 'HMAC-SHA512 of the exact request bytes with the webhook secret, hex or base64, optional sha512= prefix',
			},
			{
				name: 'Secret in Header',
				value: 'secretHeader',
				description: 'The sender puts the webhook secret itself in a header; weaker than a signature',
			},
			{
				name: 'None (Insecure)',
				value: 'none',
				description: 'Accept every request without checking who sent it',
			},
		],
		default: 'hmacSha256',
		description: 'How each delivery is checked before the workflow starts. Refused deliveries get a 401 and start nothing.',
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
		displayName: 'Signature Header',
		name: 'signatureHeader',
		type: 'string',
		default: 'x-signature',
		required: true,
		displayOptions: { show: { verification: HMAC_MODES } },
		description: 'Request header that carries the signature (case-insensitive)',
	},
	{
		displayName: 'Header Carrying the Shared Key',
		name: 'sharedKeyHeader',
		type: 'string',
		default: 'x-webhook-secret',
		required: true,
		displayOptions: { show: { verification: ['secretHeader'] } },
		description: 'Request header that carries the webhook secret (case-insensitive). It is never copied into the output.',
	},
	{
		displayName: 'Use Timestamp',
		name: 'useTimestamp',
		type: 'boolean',
		default: false,
		displayOptions: { show: { verification: HMAC_MODES } },
		description:
			'Whether the sender signs the timestamp, a dot and the raw body, and sends the timestamp in a header. Deliveries outside the tolerance window are refused, so a captured delivery cannot be replayed later.',
	},
	{
		displayName: 'Timestamp Header',
		name: 'timestampHeader',
		type: 'string',
		default: 'x-timestamp',
		required: true,
		displayOptions: { show: { verification: HMAC_MODES, useTimestamp: [true] } },
		description: 'Request header that carries the timestamp, in unix seconds',
	},
	{
		displayName: 'Tolerance (Seconds)',
		name: 'toleranceSeconds',
		type: 'number',
		default: 300,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { verification: HMAC_MODES, useTimestamp: [true] } },
		description: 'How far the timestamp may be from the current time, in either direction',
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
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Event Path',
				name: 'eventPath',
				type: 'string',
				default: 'event',
				description: 'Dot path of the event type in the JSON body, used by the Events filter. When it holds no text, "type" is tried.',
			},
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the request headers to the output as "webhookHeaders" (Authorization, Cookie and the secret header are left out)',
			},
			{
				displayName: 'Include Query Parameters',
				name: 'includeQuery',
				type: 'boolean',
				default: false,
				description: 'Whether to add the URL query parameters to the output as "webhookQuery"',
			},
		],
	},
];
