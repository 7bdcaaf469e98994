/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports -- test code: reads the sources and the README from disk */
/**
 * Every documentation link the package hands to n8n (credential documentationUrl, the codex files'
 * resources) and every in-page link of the README points to a section the README has.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ICredentialType } from 'n8n-workflow';

const ROOT = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const REPOSITORY = 'https://github.com/n8n-nodes-tenant-api/n8n-nodes-tenant-api';

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function readmeAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>(['readme']);
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) inFence = !inFence;
		const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const base = heading[1]
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		let anchor = base;
		for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
		anchors.add(anchor);
	}
	return anchors;
}

/** The source file of a dist/ entry of package.json's n8n block. */
const sourceOf = (entry: string) => path.join(ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

function credentialDocumentationUrls(): Array<[string, string]> {
	return (manifest.n8n.credentials as string[]).flatMap((entry) =>
		Object.values(require(sourceOf(entry)) as Record<string, new () => ICredentialType>).map(
			(Credential): [string, string] => [`${entry}: documentationUrl`, String(new Credential().documentationUrl)],
		),
	);
}

function codexUrls(): Array<[string, string]> {
	return (manifest.n8n.nodes as string[]).flatMap((entry) => {
		const codexFile = sourceOf(entry).replace(/\.ts$/, '.json');
		const codex = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
		return Object.entries(codex.resources as Record<string, Array<{ url: string }>>).flatMap(([kind, links]) =>
			links.map((link): [string, string] => [`${path.relative(ROOT, codexFile)}: ${kind}`, link.url]),
		);
	});
}

describe('documentation links', () => {
	const anchors = readmeAnchors(README);
	const links = [...credentialDocumentationUrls(), ...codexUrls()];

	test('the credentials and every node have documentation links', () => {
		expect(links.filter(([where]) => where.includes('documentationUrl'))).toHaveLength(manifest.n8n.credentials.length);
		expect(links.filter(([where]) => where.includes('primaryDocumentation'))).toHaveLength(manifest.n8n.nodes.length);
	});

	test.each(links)('%s → %s is a section of the README in the repository', (_where, url) => {
		const [base, anchor] = url.split('#');
		expect(base).toBe(REPOSITORY);
		expect(manifest.homepage.split('#')[0]).toBe(REPOSITORY);
		expect(anchors).toContain(anchor);
	});

	test("the README's in-page links lead to its headings", () => {
		const inPage = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
		expect(inPage.length).toBeGreaterThan(0);
		expect(inPage.filter((anchor) => !anchors.has(anchor))).toEqual([]);
	});

	test('the anchor rules match GitHub for the headings used here', () => {
		expect(readmeAnchors('## Account → Get Many\n## Idempotency: which retries are safe\n## Trigger\n## Trigger')).toEqual(
			new Set(['readme', 'account--get-many', 'idempotency-which-retries-are-safe', 'trigger', 'trigger-1']),
		);
	});
});
