/**
 * The trigger under test, wired as its node wires it (TenantApiTrigger.node.ts, settings.ts readSettings): settings
 * from the parameters and the credential (None reads none), the URL a sender signed, `receiveDelivery`, and for a
 * refusal the Refused output's item (`diagnose`).
 */
import type { IDataObject } from 'n8n-workflow';

import { diagnose } from '../../nodes/TenantApiTrigger/diagnosis';
import type { Decision } from '../../nodes/TenantApiTrigger/receive';
import { receiveDelivery } from '../../nodes/TenantApiTrigger/receive';
import { secretsOf, settingsFromParameters } from '../../nodes/TenantApiTrigger/settings';
import { signedUrl } from '../../nodes/TenantApiTrigger/url';
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

/** The settings as the node reads them for a set-up at a URL (None reads no credential). */
export const settingsOf = (setup: Setup, testUrl: boolean) =>
	settingsFromParameters(
		setup.verification,
		parameterReader(setup.parameters),
		setup.verification === 'none' ? undefined : secretsOf(setup.credential, testUrl),
	);

/** What the trigger does with a request under a set-up. */
export function trigger(setup: Setup, request: Received): Answer {
	const settings = settingsOf(setup, request.testUrl);
	const publicUrl = request.testUrl ? TEST_URL : PRODUCTION_URL;
	const path = (request.testUrl ? PATHS.test : PATHS.production) + request.rawQuery;
	const decision = receiveDelivery(settings, {
		rawBody: request.body,
		headers: request.headers,
		query: request.query,
		url:
			settings.signedUrl === undefined ? undefined : signedUrl(publicUrl, settings.signedUrl, path),
		nowSeconds: request.now,
	});
	if (decision.action !== 'refuse') return { decision };
	const evidence = {
		settings,
		headers: request.headers,
		bodyBytes: request.body?.length ?? 0,
		testUrl: request.testUrl,
		nowSeconds: request.now,
	};
	return { decision, refused: diagnose(decision, evidence) };
}
