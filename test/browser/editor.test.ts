/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: runs in Node next to n8n, not in n8n Cloud */
/**
 * What a person sees in the n8n editor: Debian's chromium (through playwright-core) against the browser project's
 * own n8n 2.x (test/harness/sharedN8n.ts) with the packed package installed, talking to the sandbox; this file
 * expects an instance where it alone created credentials. Each step saves a screenshot into test-artifacts/browser/;
 * `UPDATE_SCREENSHOTS=1 npm run test:browser` also copies those of the steps that passed into docs/screenshots/ (the
 * README shows them). Selectors are n8n's `data-test-id`s, checked against the 2.40.7 and 2.41.1 editors.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, selectors, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { sign } from '../../sandbox/signing';
import {
	ROOT,
	VERSION,
	exampleWorkflow,
	sessionLib,
	projectN8n,
	startSandbox,
	startLib,
	TRIGGER_TYPE,
	workflows,
} from '../e2e/helpers';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'browser');
const DOCS_SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const PKG = 'n8n-nodes-tenant-api';
const ACTION_TYPE = `${PKG}.tenantApi`;
const ICON_PREFIX = `/icons/${PKG}/`;
const LIST_NODE = 'List accounts';
const [EXAMPLE_CREDENTIAL] = JSON.parse(
	fs.readFileSync(path.join(ROOT, 'examples', 'credentials.json'), 'utf8'),
);

// Chromium's own calls home (updates, sync, QUIC) are off: the traffic stays on loopback.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-quic',
];

// n8n marks its elements with data-test-id (not Playwright's default data-testid).
selectors.setTestIdAttribute('data-test-id');

describe(`n8n ${VERSION} editor in chromium`, () => {
	let sandbox: Sandbox | undefined;
	const n8n = projectN8n();
	let context: BrowserContext | undefined;
	let browserProfile: string | undefined;
	const baseUrl = n8n.url;
	let listWorkflowId = '';

	beforeAll(async () => {
		fs.mkdirSync(ARTIFACTS, { recursive: true });
		for (const f of fs.readdirSync(ARTIFACTS))
			if (f.endsWith('.png')) fs.rmSync(path.join(ARTIFACTS, f));

		sandbox = await startSandbox();

		// The example credential, pointed at this sandbox; and the list-accounts example workflow.
		const credential = await startLib.createCredential(n8n, {
			...EXAMPLE_CREDENTIAL,
			data: startLib.tenantApiData(sandbox),
		});
		listWorkflowId = await sessionLib.createWorkflow(
			n8n,
			exampleWorkflow('list-accounts', { tenantApi: credential }),
		);

		browserProfile = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-chromium-'));
		context = await chromium.launchPersistentContext(browserProfile, {
			executablePath: '/usr/bin/chromium',
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1280, height: 800 },
			locale: 'en-US',
			timezoneId: 'UTC',
		});
		context.setDefaultTimeout(30000);
		// The owner's login cookie (n8n.login(): POST /rest/login, 200) goes into the browser context.
		const [name, value] = (await n8n.login()).split(/=(.*)/s);
		await context.addCookies([{ name, value, url: baseUrl }]);
		const cookies = await context.cookies(baseUrl);
		expect(cookies.map((c) => c.name)).toContain('n8n-auth');
	});

	afterAll(async () => {
		// Every resource is released even when an earlier one fails to close.
		const closed = await Promise.allSettled([context?.close(), sandbox?.close()]);
		if (browserProfile) fs.rmSync(browserProfile, { recursive: true, force: true });
		for (const result of closed) if (result.status === 'rejected') throw result.reason;
	});

	/**
	 * A step with a fresh page in the logged-in context. On failure it saves `<name>-FAILED.png`
	 * and rethrows; on success the step's screenshot (taken by the body) may go to docs/screenshots.
	 */
	async function step(name: string, body: (page: Page) => Promise<void>): Promise<void> {
		if (!context) throw new Error('the browser did not start');
		const page = await context.newPage();
		try {
			await body(page);
			if (process.env.UPDATE_SCREENSHOTS === '1') {
				fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
				fs.copyFileSync(
					path.join(ARTIFACTS, `${name}.png`),
					path.join(DOCS_SCREENSHOTS, `${name}.png`),
				);
			}
		} catch (err) {
			await page
				.screenshot({ path: path.join(ARTIFACTS, `${name}-FAILED.png`) })
				.catch(() => undefined);
			throw err;
		} finally {
			await page.close();
		}
	}

	/** The step's screenshot, with every CSS animation and transition at its end (a list that is still opening). */
	async function shot(target: Page | Locator, name: string): Promise<void> {
		await target.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), animations: 'disabled' });
	}

	/** Every <img> of our package under `scope` has loaded an SVG (HTTP 200, naturalWidth > 0). */
	async function expectOurIconsLoaded(page: Page, scope: Locator, file: string): Promise<void> {
		const img = scope.locator(`img[src*="${ICON_PREFIX}"]`).first();
		await expect(img.getAttribute('src')).resolves.toContain(`${ICON_PREFIX}dist/nodes/`);
		const src = await img.evaluate((el: HTMLImageElement) => el.src);
		expect(path.basename(new URL(src).pathname)).toBe(file);
		// decode() settles once the image has loaded; it rejects for a broken one.
		await img.evaluate((el: HTMLImageElement) => el.decode());
		expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
		const res = await page.request.get(src);
		expect(res.status()).toBe(200);
		expect(res.headers()['content-type']).toContain('image/svg+xml');
		expect((await res.text()).trimStart()).toMatch(/^(<\?xml[^>]*>\s*)?<svg/);
	}

	/** A new workflow with the node creator searched for "Tenant API". */
	async function searchNodeCreator(page: Page): Promise<Locator> {
		await page.goto(`${baseUrl}/workflow/new`);
		await page.getByTestId('node-creator-plus-button').click();
		const creator = page.getByTestId('node-creator');
		await page.getByTestId('node-creator-search-bar').fill('Tenant API');
		await creator.getByTestId('node-creator-item-name').first().waitFor();
		return creator;
	}

	/** Inner texts of all elements a locator matches, once the first of them is visible. */
	async function textsOf(locator: Locator): Promise<string[]> {
		await locator.first().waitFor();
		return (await locator.allInnerTexts()).map((t) => t.trim());
	}

	/** Items of the node creator, by node type (data-keyboard-nav-id is "<type>-<uuid>"). */
	const itemsOfType = (scope: Locator, type: string) =>
		scope.locator(`[data-test-id="item-iterator-item"][data-keyboard-nav-id^="${type}-"]`);

	test('node creator: searching "Tenant API" finds the action node and the trigger, with their icons', async () => {
		await step('node-search', async (page) => {
			const creator = await searchNodeCreator(page);
			// n8n 2.x shows an action node and its trigger as one entry named after the action node.
			const entry = itemsOfType(creator, ACTION_TYPE);
			expect(await textsOf(entry.getByTestId('node-creator-item-name'))).toEqual(['Tenant API']);
			await expectOurIconsLoaded(page, entry, 'tenantApi.svg');

			// Its details list the trigger node (Triggers) and the action node's operations (Actions).
			await entry.click();
			const triggers = itemsOfType(creator, TRIGGER_TYPE);
			expect(await textsOf(triggers.getByTestId('node-creator-item-name'))).toEqual([
				'On new Tenant API event',
			]);
			await expectOurIconsLoaded(page, triggers, 'tenantApiTrigger.svg');
			await creator
				.getByTestId('node-creator-category-item')
				.filter({ hasText: 'Actions' })
				.click();
			const actions = itemsOfType(creator, ACTION_TYPE);
			// The operations the README documents (the list grows with the node: contain, not equal).
			expect(await textsOf(actions.getByTestId('node-creator-item-name'))).toEqual(
				expect.arrayContaining(['Get many accounts', 'Post to an endpoint']),
			);
			await expectOurIconsLoaded(page, actions, 'tenantApi.svg');
			await shot(page, 'node-search');
		});
	});

	/** New workflow, node creator → Tenant API → `pick` (in the entry's details): the node lands on the canvas, NDV open. */
	async function addNode(page: Page, pick: (creator: Locator) => Promise<void>): Promise<Locator> {
		const creator = await searchNodeCreator(page);
		await itemsOfType(creator, ACTION_TYPE).first().click();
		await pick(creator);
		const ndv = page.getByTestId('ndv');
		await ndv.waitFor();
		return ndv;
	}
	const addActionNode = (page: Page) =>
		addNode(page, async (creator) => {
			await creator
				.getByTestId('node-creator-category-item')
				.filter({ hasText: 'Actions' })
				.click();
			await itemsOfType(creator, ACTION_TYPE).filter({ hasText: 'Get many accounts' }).click();
		});
	const addTriggerNode = (page: Page) =>
		addNode(page, (creator) => itemsOfType(creator, TRIGGER_TYPE).first().click());

	test('action node: added to the canvas, its parameters render', async () => {
		await step('action-node', async (page) => {
			const ndv = await addActionNode(page);
			await expect(
				page.locator(`[data-test-id="canvas-node"][data-node-type="${ACTION_TYPE}"]`).count(),
			).resolves.toBe(1);
			const params = ndv.getByTestId('node-parameters');
			const value = (name: string) =>
				params.getByTestId(`parameter-input-${name}`).locator('input').first().inputValue();
			await expect(value('resource')).resolves.toBe('Account');
			await expect(value('operation')).resolves.toBe('Get Many');
			await expect(value('limit')).resolves.toBe('50');
			await expect(
				params.getByTestId('parameter-input-returnAll').locator('input[role="switch"]').isChecked(),
			).resolves.toBe(false);
			const labels = (await textsOf(params.getByTestId('input-label'))).map((t) =>
				t.split('\n')[0].trim(),
			);
			expect(labels).toEqual(
				expect.arrayContaining([
					'Resource',
					'Operation',
					'Return All',
					'Limit',
					'Query Parameters',
					'Options',
				]),
			);
			expect(await textsOf(ndv.getByTestId('credentials-label'))).toEqual(['Credential']);
			// The only Tenant API credential is picked for the new node.
			await expect(
				ndv.getByTestId('node-credentials-select').locator('input').inputValue(),
			).resolves.toBe(EXAMPLE_CREDENTIAL.name);
			await expectOurIconsLoaded(page, ndv, 'tenantApi.svg');
			await shot(page, 'action-node');
		});
	});

	test('credential dialog: a new Tenant API credential shows its fields', async () => {
		await step('credential', async (page) => {
			// Tall enough for the dialog to show every field without scrolling.
			await page.setViewportSize({ width: 1280, height: 1060 });
			const ndv = await addActionNode(page);
			await ndv.getByTestId('node-credentials-select').click();
			await page.getByTestId('node-credentials-select-item-new').click();
			// The modal (`editCredential-modal`) holds the header; `credential-edit-dialog` is its body.
			const modal = page.getByTestId('editCredential-modal');
			const dialog = modal.getByTestId('credential-edit-dialog');
			await dialog.waitFor();
			// Header: n8n's default name for a new credential, above the credential type's display name.
			expect(await textsOf(modal.getByTestId('credential-name'))).toEqual(['Tenant account']);
			await modal.locator('header').getByText('Tenant API', { exact: true }).waitFor();
			await expectOurIconsLoaded(page, modal.locator('header'), 'tenantApi.svg');
			const fields: Array<[string, string]> = [
				['environment', 'Environment'],
				['baseUrl', 'Base URL'],
				['secretKey', 'Secret Key'],
				['tenantId', 'Tenant ID'],
			];
			await expectFieldLabels(dialog, fields);
			await expect(
				dialog.getByTestId('parameter-input-environment').locator('input').first().inputValue(),
			).resolves.toBe('Sandbox');
			// The secret is a password field; the webhook fields live in their own credential now.
			expect(await inputType(dialog, 'secretKey')).toBe('password');
			await expect(dialog.getByTestId('webhookSecret').count()).resolves.toBe(0);
			await shot(page, 'credential');
		});
	});

	const inputType = (dialog: Locator, name: string) =>
		dialog.getByTestId(`parameter-input-${name}`).locator('input').getAttribute('type');

	/** Each field of a credential dialog is shown with its label (first line, without the required mark). */
	async function expectFieldLabels(
		dialog: Locator,
		fields: Array<[string, string]>,
	): Promise<void> {
		for (const [name, label] of fields) {
			// Each field sits in a container whose data-test-id is the field name.
			const field = dialog.getByTestId(name);
			await field.getByTestId('parameter-input-' + name).waitFor();
			// The label's first line (the Fixed/Expression toggle follows it), without the required mark.
			const text = (await field.locator('label').first().innerText()).split('\n')[0];
			expect(text.replace('*', '').trim()).toBe(label);
		}
	}

	test('trigger node: Verification lists every signing scheme, Respond its two modes; a new Tenant Webhook API credential asks only for the secrets', async () => {
		await step('trigger-verification', async (page) => {
			await page.setViewportSize({ width: 1280, height: 1000 });
			const ndv = await addTriggerNode(page);
			const params = ndv.getByTestId('node-parameters');
			const verification = params.getByTestId('parameter-input-verification');
			await expect(verification.locator('input').first().inputValue()).resolves.toBe(
				'HMAC-SHA256 of the Body',
			);
			await verification.click();
			const options = page.locator('.el-select-dropdown__item:visible');
			await options.first().waitFor();
			expect((await options.allInnerTexts()).map((t) => t.split('\n')[0].trim())).toEqual([
				'HMAC-SHA256 of the Body',
				'HMAC-SHA512 of the Body',
				'HMAC-SHA256 of Timestamp and Body (t=…,v1=… Header)',
				'Standard Webhooks',
				'Custom HMAC',
				'Secret in Header (Weaker)',
				'None (Insecure, Local Tests Only)',
			]);
			await shot(page, 'trigger-verification');
			await options.filter({ hasText: 'Standard Webhooks' }).first().click();
			await expect(verification.locator('input').first().inputValue()).resolves.toBe(
				'Standard Webhooks',
			);
			await params.getByTestId('parameter-input-toleranceSeconds').waitFor();
			// Respond: on receipt by default; "When the Workflow Finishes" shows what it costs the sender.
			const respond = params.getByTestId('parameter-input-respond');
			await expect(respond.locator('input').first().inputValue()).resolves.toBe('On Receipt');
			await respond.click();
			// The Verification list closes with an animation: read the options once only this list is open.
			const respondOptions = page
				.locator('.el-select-dropdown__item:visible')
				.filter({ hasText: /^(On Receipt|When the Workflow Finishes)/ });
			await respondOptions.last().waitFor();
			await page
				.locator('.el-select-dropdown__item', { hasText: 'Custom HMAC' })
				.first()
				.waitFor({ state: 'hidden', timeout: 10000 });
			expect((await options.allInnerTexts()).map((t) => t.split('\n')[0].trim())).toEqual([
				'On Receipt',
				'When the Workflow Finishes',
			]);
			await options.filter({ hasText: 'When the Workflow Finishes' }).first().click();
			await params.getByText(/The sender waits while the workflow runs/).waitFor();
		});
		await step('webhook-credential', async (page) => {
			await page.setViewportSize({ width: 1280, height: 900 });
			const ndv = await addTriggerNode(page);
			// No credential of this type exists yet: n8n 2.x offers a button instead of the credential select.
			await ndv.getByRole('button', { name: /^Connect to Tenant Webhook/ }).click();
			const modal = page.getByTestId('editCredential-modal');
			const dialog = modal.getByTestId('credential-edit-dialog');
			await dialog.waitFor();
			await modal.locator('header').getByText('Tenant Webhook API', { exact: true }).waitFor();
			await expectOurIconsLoaded(page, modal.locator('header'), 'tenantApiTrigger.svg');
			await expectFieldLabels(dialog, [
				['signingSecret', 'Signing Secret'],
				['previousSigningSecret', 'Previous Signing Secret'],
				['testSigningSecret', 'Test URL Signing Secret'],
			]);
			for (const name of ['signingSecret', 'previousSigningSecret', 'testSigningSecret'])
				expect(await inputType(dialog, name)).toBe('password');
			for (const absent of ['baseUrl', 'secretKey', 'tenantId', 'environment'])
				await expect(dialog.getByTestId(absent).count()).resolves.toBe(0);
			await shot(page, 'webhook-credential');
		});
	});

	/**
	 * The saved workflow opened in the editor, its node `name` (of type `type`) opened and executed: its NDV and
	 * output panel (`output-panel`; older editors: `ndv-output-panel`).
	 */
	async function executeNode(page: Page, workflowId: string, name: string, type: string) {
		await page.goto(`${baseUrl}/workflow/${workflowId}`);
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
		await node.waitFor();
		await expect(node.getAttribute('data-node-type')).resolves.toBe(type);
		await node.dblclick();
		const ndv = page.getByTestId('ndv');
		await ndv.waitFor();
		await ndv.getByTestId('node-execute-button').first().click();
		const output = ndv
			.locator('[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]')
			.first();
		return { ndv, output };
	}

	test("a refused test delivery: the editor stops listening and the trigger's Refused output says why", async () => {
		await step('trigger-refused', async (page) => {
			await page.setViewportSize({ width: 1280, height: 900 });
			const credential = await startLib.createCredential(n8n, {
				name: 'Tenant Webhook (browser)',
				type: 'tenantWebhookApi',
				data: { signingSecret: 'whsec_browser', previousSigningSecret: '' },
			});
			const webhookId = crypto.randomUUID();
			const trigger = workflows.node(
				'Tenant API Trigger',
				TRIGGER_TYPE,
				{},
				{
					webhookId,
					credentials: { tenantWebhookApi: credential },
				},
			);
			const workflow = workflows.chain('Refused delivery', [trigger]);
			const { ndv, output } = await executeNode(
				page,
				await sessionLib.createWorkflow(n8n, workflow),
				trigger.name,
				TRIGGER_TYPE,
			);
			// The editor now listens on the Test URL.
			await ndv.getByText('Listening for test event').first().waitFor();
			// A delivery signed with another secret, as after a "Rotate API Key" not copied into the credential.
			const body = JSON.stringify({ id: 'evt_browser', event: 'transfers.created' });
			const answer = await fetch(`${baseUrl}/webhook-test/${webhookId}/webhook`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-signature': sign({ secret: 'whsec_rotated', body })['x-signature'],
				},
				body,
			});
			expect(answer.status).toBe(401);
			const refusedTab = output.getByText(/^Refused Branch/).first();
			await refusedTab.waitFor();
			await refusedTab.click();
			await output.getByText('signature_mismatch').first().waitFor();
			await output
				.getByText(
					/The signature does not match the \d+-byte body signed with the current secret\./,
				)
				.first()
				.waitFor();
			await shot(page, 'trigger-refused');
		});
	});

	test('list accounts: executing the node in the editor shows the sandbox accounts in the output panel', async () => {
		await step('list-accounts-output', async (page) => {
			const before = sandbox!.stats().requests;
			const { output } = await executeNode(page, listWorkflowId, LIST_NODE, ACTION_TYPE);
			await output.getByTestId('node-run-status-success').waitFor({ timeout: 60000 });
			await output
				.getByTestId('ndv-items-count')
				.filter({ hasText: /^\s*50 items\s*$/ })
				.waitFor();
			await output.getByText('acc_0001', { exact: true }).waitFor();
			await output.getByText('acc_0002', { exact: true }).waitFor();
			// The run went to the sandbox, not to pinned or cached data.
			expect(sandbox!.stats().requests).toBeGreaterThan(before);
			await shot(page, 'list-accounts-output');
		});
	});
});
