/**
 * Everything about each item that is settled before the first request goes out: its method,
 * endpoint, body and Idempotency-Key. A plan that fails is that item's failure, reported when its
 * turn comes.
 */
import type { IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { asFailure } from '../../transport/errors';
import { cachedParameterReader } from '../common/parameters';
import type { IdempotencyScope, RequestContent } from './idempotencyKeys';
import {
	canonicalJson,
	deriveContentKey,
	deriveIdempotencyKey,
	validateIdempotencyKeyOverride,
} from './idempotencyKeys';
import { parseJsonObjectBody } from '../common/jsonBody';
import type { KeyScope } from './keyScope';
import { resolveKeyScope } from './keyScope';

export const NOTHING_SENT = 'Nothing was sent. Fix the parameter and run again.';

const METHODS_WITH_BODY = new Set<IHttpRequestMethods>(['POST', 'PUT', 'PATCH']);

/** How automatic keys tell a node run's requests apart (Options → Automatic Key Derivation). */
export type KeyDerivation = 'position' | 'content';

export interface ItemPlan {
	method: IHttpRequestMethods;
	/** The Endpoint parameter as given; checked against the Base URL when the item is sent. */
	endpoint: unknown;
	/** Serialized once, so every attempt sends the same bytes. */
	jsonBody?: string;
	/** Every method but GET carries one. */
	idempotencyKey?: string;
	/** Where the key comes from: derived, or the Idempotency Key option. */
	keySource?: 'automatic' | 'option';
}

export interface RequestPlans {
	plans: Array<ItemPlan | Error>;
	/** Where the automatic keys live, when some item has one. */
	keys?: KeyScope;
}

interface Draft extends ItemPlan {
	/** The Idempotency Key option, when set. */
	override?: string;
	/** For derivation by content. */
	content?: RequestContent;
}

function readKeyDerivation(fn: IExecuteFunctions): KeyDerivation {
	return fn.getNodeParameter('options.keyDerivation', 0, 'position') === 'content'
		? 'content'
		: 'position';
}

function draftItem(
	fn: IExecuteFunctions,
	methodFor: (itemIndex: number) => IHttpRequestMethods,
	derivation: KeyDerivation,
	endpointOf: (itemIndex: number) => unknown,
	itemIndex: number,
): Draft {
	const optionKey = fn.getNodeParameter('options.idempotencyKey', itemIndex, '') as unknown;
	const method = asFailure(itemIndex, () => methodFor(itemIndex), NOTHING_SENT);
	const endpoint = endpointOf(itemIndex);
	const bodyParameter = METHODS_WITH_BODY.has(method)
		? fn.getNodeParameter('body', itemIndex, '{}')
		: undefined;
	return asFailure(
		itemIndex,
		() => {
			const draft: Draft = { method, endpoint };
			if (method !== 'GET' && optionKey !== '' && optionKey !== undefined && optionKey !== null) {
				draft.override = validateIdempotencyKeyOverride(optionKey);
			}
			const body = bodyParameter === undefined ? undefined : parseJsonObjectBody(bodyParameter);
			if (body !== undefined) draft.jsonBody = JSON.stringify(body);
			if (derivation === 'content') {
				draft.content = {
					method,
					endpoint: String(endpoint).trim(),
					canonicalBody: body === undefined ? '' : canonicalJson(body),
				};
			}
			return draft;
		},
		NOTHING_SENT,
	);
}

const needsAutomaticKey = (draft: Draft | Error): draft is Draft =>
	!(draft instanceof Error) && draft.method !== 'GET' && draft.override === undefined;

/**
 * Derived keys, within the run's scope (its event, or the execution): by the item's position, or by
 * content with a count of identical requests so that each one gets its own key.
 */
function automaticKeys(
	drafts: Array<Draft | Error>,
	scope: IdempotencyScope,
	derivation: KeyDerivation,
): Map<number, string> {
	const derived = new Map<number, string>();
	const seen = new Map<string, number>();
	drafts.forEach((draft, itemIndex) => {
		if (!needsAutomaticKey(draft)) return;
		if (derivation === 'position' || !draft.content) {
			derived.set(itemIndex, deriveIdempotencyKey(scope, itemIndex));
			return;
		}
		const { method, endpoint, canonicalBody } = draft.content;
		const identity = [method, endpoint, canonicalBody].join('\u0000');
		const occurrence = (seen.get(identity) ?? 0) + 1;
		seen.set(identity, occurrence);
		derived.set(itemIndex, deriveContentKey(scope, draft.content, occurrence));
	});
	return derived;
}

/**
 * Plans every input item. The key scope is resolved (and recorded in the node context) only when an
 * item needs an automatic key, and always before anything is sent.
 */
export function planRequests(
	fn: IExecuteFunctions,
	methodFor: (itemIndex: number) => IHttpRequestMethods,
): RequestPlans {
	const derivation = readKeyDerivation(fn);
	const endpointOf = cachedParameterReader<unknown>(fn, 'endpoint', '');
	const drafts = fn.getInputData().map((_item, itemIndex): Draft | Error => {
		try {
			return draftItem(fn, methodFor, derivation, endpointOf, itemIndex);
		} catch (error) {
			return error as Error;
		}
	});
	const keys = drafts.some(needsAutomaticKey) ? resolveKeyScope(fn) : undefined;
	const derived = keys ? automaticKeys(drafts, keys.scope, derivation) : new Map<number, string>();
	const plans = drafts.map((draft, itemIndex): ItemPlan | Error => {
		if (draft instanceof Error) return draft;
		const { method, endpoint, jsonBody, override } = draft;
		if (override !== undefined)
			return { method, endpoint, jsonBody, idempotencyKey: override, keySource: 'option' };
		const automatic = derived.get(itemIndex);
		return automatic === undefined
			? { method, endpoint, jsonBody }
			: { method, endpoint, jsonBody, idempotencyKey: automatic, keySource: 'automatic' };
	});
	return { plans, keys };
}
