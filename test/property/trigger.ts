/**
 * The trigger under test, wired the way its node wires it (nodes/TenantApiTrigger/TenantApiTrigger.node.ts,
 * judgeRequest and refuseDelivery): the settings from the node's parameters and the credential's secrets (those the
 * URL accepts, and all of them), the URL a sender signed, the pure decision (`receiveDelivery`), and for a refusal
 * the Refused output's item (`diagnose`).
 */
import type { IDataObject } from 'n8n-workflow';

import type { Evidence } from '../../nodes/TenantApiTrigger/diagnosis';
import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { Decision } from '../../nodes/TenantApiTrigger/receive';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import {
	credentialSecrets,
	settingsFromParameters,
	signingSecrets,
} from '../../nodes/TenantApiTrigger/settings';
import { signedUrlOf } from '../../nodes/TenantApiTrigger/url';
import { parameterReader } from '../harness/verifier';

import type { Received } from './oracle';
import type { Setup } from './settings';
import { PRODUCTION_URL, TEST_URL } from './settings';

/** n8n's request path of the webhook (the query string as sent follows it). */
const PATHS = { production: '/webhook/5b0c7e1a/webhook', test: '/webhook-test/5b0c7e1a/webhook' };

export interface Answer {
	decision: Decision;
	/** The Refused output's item, for a refusal. */
	refused?: IDataObject;
}

/** What the trigger does with a request under a set-up. */
export function trigger(setup: Setup, request: Received): Answer {
	const read = parameterReader(setup.parameters);
	const secrets =
		setup.verification === 'none'
			? { accepted: [], all: [] }
			: {
					accepted: signingSecrets(setup.credential, request.testUrl),
					all: credentialSecrets(setup.credential),
				};
	const settings = settingsFromParameters(setup.verification, read, secrets);
	const publicUrl = request.testUrl ? TEST_URL : PRODUCTION_URL;
	const path = (request.testUrl ? PATHS.test : PATHS.production) + request.rawQuery;
	const decision = receiveDelivery(settings, {
		rawBody: request.body,
		headers: request.headers,
		query: request.query,
		url:
			settings.check.kind === 'hmac'
				? signedUrlOf(publicUrl, read('signedUrl', ''), path)
				: undefined,
		nowSeconds: request.now,
	});
	if (decision.action !== 'refuse') return { decision };
	const evidence: Evidence = {
		verification: setup.verification,
		check: settings.check,
		secrets: settings.secrets,
		bodyFormat: settings.bodyFormat,
		headers: request.headers,
		bodyBytes: request.body?.length ?? 0,
		testUrl: request.testUrl,
		nowSeconds: request.now,
	};
	return { decision, refused: diagnose(decision, evidence) };
}
