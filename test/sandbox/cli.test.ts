/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node next to n8n, not in n8n Cloud */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { demoSecret } from '../../sandbox/signing';
import { configForScheme, queryOf, verifyReceived } from '../harness/verifier';
import { startReceiver } from './helpers';

const CLI = path.join(__dirname, '../../sandbox/cli.js');

function run(args: string[]) {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout.on('data', (c) => (out += c));
	child.stderr.on('data', (c) => (out += c));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, output: () => out, exited };
}

describe('sandbox CLI', () => {
	it('serves with the given flags, prints what a user needs, and stops cleanly on SIGTERM', async () => {
		const p = run(['--port', '0', '--accounts', '7', '--pagination', 'page', '--api-key', 'cli_key', '--tenant', 'cli_tenant']);
		const deadline = Date.now() + 5000;
		while (!/base URL\s+(\S+)/.test(p.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		const out = p.output();
		const baseUrl = /base URL\s+(\S+)/.exec(out)?.[1] as string;
		expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
		expect(out).toContain('cli_key');
		expect(out).toContain('cli_tenant');
		expect(out).toContain('/_sandbox/stats');
		const body = await (await fetch(baseUrl + '/accounts', { headers: { 'Api-Key': 'cli_key', 'x-tenant-id': 'cli_tenant' } })).json();
		expect(body).toMatchObject({ page: 1, total_pages: 1 });
		expect(body.items).toHaveLength(7);
		p.child.kill('SIGTERM');
		expect(await p.exited).toBe(0);
	});

	it('serves with a rate limit and latency from the flags', async () => {
		const p = run(['--port', '0', '--rate-limit', '0.01', '--burst', '1', '--rate-limit-headers=x', '--latency', '20', '--latency-jitter', '5']);
		const deadline = Date.now() + 5000;
		while (!/base URL\s+(\S+)/.test(p.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		const baseUrl = /base URL\s+(\S+)/.exec(p.output())?.[1] as string;
		expect(p.output()).toContain('rate limit 0.01/s per key, burst 1, 429 + Retry-After beyond, x rate-limit headers; answers after 20 ms + up to 5 ms');
		const headers = { 'Api-Key': 'sk_test_sandbox' };
		const first = await fetch(baseUrl + '/accounts', { headers });
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
		const second = await fetch(baseUrl + '/accounts', { headers });
		expect(second.status).toBe(429);
		expect(second.headers.get('retry-after')).toBe('100');
		p.child.kill('SIGTERM');
		expect(await p.exited).toBe(0);
	});

	it('deliver subcommand sends one signed delivery and prints the status', async () => {
		const receiver = await startReceiver([204]);
		try {
			const p = run(['deliver', '--to', receiver.url, '--secret', 's3cret', '--scheme', 'hmac-sha256-base64', '--event', 'payouts.created']);
			expect(await p.exited).toBe(0);
			expect(p.output()).toMatch(/evt_1: 204 after 1 attempt/);
			const got = receiver.received[0];
			expect(JSON.parse(got.body.toString()).event).toBe('payouts.created');
			expect(got.headers['x-signature']).toMatch(/^[A-Za-z0-9+/]{43}=$/);
			expect(verifyReceived(configForScheme('hmac-sha256-base64', ['s3cret']), got)).toMatchObject({ ok: true });
			expect(verifyReceived(configForScheme('hmac-sha256-base64', ['other']), got)).toMatchObject({ ok: false });
		} finally {
			await receiver.close();
		}
	});

	it.each(['standard-webhooks', 'twilio', 'adyen-payments'] as const)('deliver --scheme %s signs with the scheme\'s demo secret; the product verifier accepts it', async (scheme) => {
		// 204: an answer every sender accepts (Twilio wants TwiML or 204).
		const receiver = await startReceiver([204]);
		try {
			const p = run(['deliver', '--to', receiver.url, '--scheme', scheme, '--event', 'payouts.created']);
			expect(await p.exited).toBe(0);
			const got = receiver.received[0];
			const result = verifyReceived(configForScheme(scheme, [demoSecret(scheme)]), { ...got, url: receiver.url + queryOf(got.url) });
			expect(result).toMatchObject({ ok: true });
		} finally {
			await receiver.close();
		}
	});

	it('deliver prints what the sender made of the answer: a Twilio delivery answered with JSON fails as Twilio error 12300, once', async () => {
		const receiver = await startReceiver([{ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }, 200]);
		try {
			const p = run(['deliver', '--to', receiver.url, '--scheme', 'twilio', '--attempts', '3']);
			expect(await p.exited).toBe(1);
			expect(p.output()).toBe('evt_1: 200 after 1 attempt(s): Twilio error 12300 Invalid Content-Type [answer: 200, application/json, "{}"]\n');
			expect(receiver.received).toHaveLength(1);
		} finally {
			await receiver.close();
		}
	});

	it('register --scheme slack sends the signed url_verification and prints the outcome; exit 0 only when the URL passes', async () => {
		const challengeOf = (body: Buffer) => String(JSON.parse(body.toString('utf8')).challenge);
		const receiver = await startReceiver([(got) => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: challengeOf(got.body) }), { status: 200, body: 'ok' }]);
		try {
			const passed = run(['register', '--to', receiver.url, '--scheme', 'slack', '--secret', 's3cret']);
			expect(await passed.exited).toBe(0);
			expect(passed.output()).toMatch(/^Slack URL verification: passed: URL verified \[answer: 200, text\/plain, "[^"]+"\]\n$/);
			expect(verifyReceived(configForScheme('slack', ['s3cret'], { bodyFormat: 'json' }), receiver.received[0])).toMatchObject({ ok: true });
			const failed = run(['register', '--to', receiver.url, '--scheme', 'slack']);
			expect(await failed.exited).toBe(1);
			expect(failed.output()).toBe('Slack URL verification: failed: Your URL didn\'t respond with the value of the challenge parameter. [answer: 200, no Content-Type, "ok"]\n');
		} finally {
			await receiver.close();
		}
	});

	it('register with a scheme whose sender makes no handshake is a usage error', async () => {
		const p = run(['register', '--to', 'http://127.0.0.1:9/hook', '--scheme', 'stripe']);
		expect(await p.exited).toBe(2);
		expect(p.output()).toContain('the stripe sender makes no handshake (those that do: slack, github)');
	});

	it('exits non-zero on bad flags', async () => {
		const p = run(['--pagination', 'bogus', '--port', '0']);
		expect(await p.exited).toBe(2);
		expect(p.output()).toContain('unknown pagination mode');
	});
});
