/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @typescript-eslint/no-require-imports -- test code: reads the documentation and the node sources from disk, and asks git which files the repository has */
/**
 * The documentation check of `npm test` (CONTRIBUTING.md "The documentation check" lists its rules), over
 * the project's Markdown, the links the package hands to n8n and the comments of the code. The checker is
 * shown failing on broken samples first.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ICredentialType, INodeType } from 'n8n-workflow';

import type { Repository } from './checks';
import {
	brokenLinks,
	commentLines,
	headingAnchors,
	linkProblem,
	optionDisplayNames,
	stalePointers,
	unknownOptions,
	unknownScripts,
} from './checks';

const ROOT = path.join(__dirname, '..', '..', '..');
const REPOSITORY = 'https://github.com/n8n-nodes-tenant-api/n8n-nodes-tenant-api';
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json'));

const MANUAL = fs
	.readdirSync(path.join(ROOT, 'docs'))
	.filter((name) => name.endsWith('.md'))
	.map((name) => `docs/${name}`);
const PRODUCT_DOCS = ['README.md', 'CONTRIBUTING.md', ...MANUAL, 'sandbox/README.md'];
const CHECKED = [...PRODUCT_DOCS, 'CHANGELOG.md', 'examples/README.md'];

/** The repository's files as git sees them: tracked, and new ones it does not ignore. */
const FILES = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
	cwd: ROOT,
	encoding: 'utf8',
})
	.split('\n')
	.filter((file) => file !== '' && fs.existsSync(path.join(ROOT, file)));

const repository: Repository = {
	url: REPOSITORY,
	files: FILES,
	read,
	ignored: (file) =>
		spawnSync('git', ['check-ignore', '--no-index', file, `${file}/`], { cwd: ROOT }).status === 0,
};

/** An in-memory repository for the checker's own tests; git would ignore what is under `ignoredFolders`. */
const sampleRepository = (files: Record<string, string>, ignoredFolders: string[] = []) => ({
	url: REPOSITORY,
	files: Object.keys(files),
	read: (file: string) => files[file],
	ignored: (file: string) =>
		ignoredFolders.some((folder) => file === folder || file.startsWith(`${folder}/`)),
});

/** The code whose comments are checked. */
const CODE = FILES.filter((file) =>
	/^(nodes|credentials|scripts|sandbox|bench|test)\/.*\.(ts|js|mjs|cjs|sh)$/.test(file),
);

/** The source file of a dist/ entry of package.json's n8n block. */
const sourceOf = (entry: string) =>
	path.join(ROOT, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

const classesOf = <T>(entries: string[]): T[] =>
	entries.flatMap((entry) =>
		Object.values(require(sourceOf(entry)) as Record<string, new () => T>).map((C) => new C()),
	);

const options = optionDisplayNames(
	classesOf<INodeType>(manifest.n8n.nodes).flatMap((node) => node.description.properties),
);

/** The documentation links the package hands to n8n: the credentials' documentationUrl and the codex resources. */
const handedLinks = (): Array<[string, string]> => [
	...classesOf<ICredentialType>(manifest.n8n.credentials).map((credential): [string, string] => [
		`${credential.name}: documentationUrl`,
		String(credential.documentationUrl),
	]),
	...(manifest.n8n.nodes as string[]).flatMap((entry) => {
		const codexFile = path.relative(ROOT, sourceOf(entry).replace(/\.ts$/, '.json'));
		const { resources } = JSON.parse(read(codexFile));
		return Object.entries(resources as Record<string, Array<{ url: string }>>).flatMap(
			([kind, links]) => links.map(({ url }): [string, string] => [`${codexFile}: ${kind}`, url]),
		);
	}),
];

describe('the documentation checker', () => {
	const sample = sampleRepository({
		'README.md': [
			'# Tenant API',
			'## Account → Get Many',
			'## Idempotency: which retries are safe',
			'## Trigger',
			'## Trigger',
			'```md',
			'## Not a heading',
			'[in a code block](docs/missing.md)',
			'```',
			'See [the manual](docs/trigger.md#set-up), [get many](#account--get-many), [again](#trigger-1).',
			'Broken: [a file](docs/missing.md), [a heading](docs/trigger.md#no-such-heading), [here](#not-here).',
			'Also [out](../outside.md), [a folder anchor](docs#x), [a script anchor](index.js#main), [a line](index.js#L3).',
			'Not links: `[code](docs/missing.md)`, [a site](https://example.com/x.md#y).',
			`Repository: [front page](${REPOSITORY}#trigger), [a page](${REPOSITORY}/blob/main/docs/trigger.md#nowhere).`,
			'![a screenshot](docs/screenshots/x.png) <img src="docs/screenshots/gone.png">',
			'Run `npm run build`, npm start, `npm test` and `npm run no-such-script`.',
			'Set **Options → Concurrency** and **Options → Concurency**.',
		].join('\n'),
		'docs/trigger.md': '# Trigger\n\n## Set-up\n\nBack to [the README](../README.md#trigger).',
		'docs/screenshots/x.png': '',
		'index.js': '',
	});

	test("GitHub's anchor rules: punctuation dropped, spaces to hyphens, repeats numbered, code blocks skipped", () => {
		expect(headingAnchors(sample.read('README.md'))).toEqual(
			new Set([
				'tenant-api',
				'account--get-many',
				'idempotency-which-retries-are-safe',
				'trigger',
				'trigger-1',
			]),
		);
		expect(
			headingAnchors(
				'## `npm start` and **Options → Event Path**\n### [Pagination](docs/pagination.md) (1.x)',
			),
		).toEqual(new Set(['npm-start-and-options--event-path', 'pagination-1x']));
	});

	test('reports every link to a missing file, folder or heading, and nothing else', () => {
		expect(brokenLinks('README.md', sample)).toEqual([
			'README.md:11: docs/missing.md: no file docs/missing.md',
			'README.md:11: docs/trigger.md#no-such-heading: docs/trigger.md has no heading with the anchor #no-such-heading',
			'README.md:11: #not-here: README.md has no heading with the anchor #not-here',
			'README.md:12: ../outside.md: leads outside the repository',
			'README.md:12: docs#x: docs is a folder, it has no anchors',
			'README.md:12: index.js#main: index.js is not Markdown, only line anchors (#L10) work there',
			`README.md:14: ${REPOSITORY}/blob/main/docs/trigger.md#nowhere: docs/trigger.md has no heading with the anchor #nowhere`,
			'README.md:15: docs/screenshots/gone.png: no file docs/screenshots/gone.png',
		]);
		expect(brokenLinks('docs/trigger.md', sample)).toEqual([]);
		expect(linkProblem('docs/trigger.md', '../README.md#trigger-2', sample)).toBe(
			'../README.md#trigger-2: README.md has no heading with the anchor #trigger-2',
		);
	});

	test('reports an npm script that package.json does not have', () => {
		expect(
			unknownScripts('README.md', sample.read('README.md'), { build: '', start: '', test: '' }),
		).toEqual(['README.md:16: npm script "no-such-script" is not in package.json']);
		expect(unknownScripts('x.md', 'npm start', {})).toEqual([
			'x.md:1: npm script "start" is not in package.json',
		]);
	});

	test('reads the option names of both nodes from their descriptions, and reports an option that no node has', () => {
		for (const name of [
			'Idempotency Key',
			'Automatic Key Derivation',
			'Page Size',
			'Max Rate-Limit Wait (S)',
			'Delivery ID Fields',
			'Event Path',
		])
			expect(options).toContain(name);
		expect(options).not.toContain('Endpoint');
		expect(unknownOptions('README.md', sample.read('README.md'), options)).toEqual([
			'README.md:17: "Options → Concurency" is no option of the nodes',
		]);
	});

	test('reports files, folders and README or docs sections that code comments name but the repository does not have', () => {
		const code = sampleRepository(
			{
				'README.md': '# Tenant API\n## Rate limits\n',
				'CONTRIBUTING.md': '# Contributing\n## What `npm start` and the tests set\n',
				'docs/pagination.md':
					'# Pagination\n## What Auto-Detect recognises\n## How the end is found\n',
				'nodes/TenantApi/transport/apiUrl.ts': '',
				'nodes/TenantApi/transport/pagination/readPage.ts': [
					'/**',
					' * Found: (docs/pagination.md, "What Auto-Detect recognises"), README "Rate limits", CONTRIBUTING "What `npm start`",',
					' * (docs/pagination.md, How the end is found), README.md#rate-limits, transport/apiUrl.ts, ../apiUrl.ts, ./readPage.',
					' * Gone: README "Pagination", docs/pagination.md#no-such-anchor, (docs/pagination.md, Where it stops).',
					' * Gone too: fetchListing.ts, test/unit/fuzz, docs/gone.md, pagination/gone.ts, ./gone, `test/harness/*.ts`.',
					" * Not ours or no path: n8n's packages/cli/src/webhooks/webhook-helpers.ts, @n8n/node-cli, /v1/transfers, .n8n/nodes,",
					' * application/json, https://example.com/docs/x.md, "Test.node.ts", report.json, bench/results/latest.json.',
					' */',
					"const url = 'http://127.0.0.1/docs/missing.md'; // a URL in a string is no comment; test/unit/docs exists",
				].join('\n'),
				'sandbox/README.md': '# Sandbox\n## Faults\n',
				'sandbox/api.js':
					'// Faults (README "Faults") and limits (README "Rate limits") in ./state and ./limits.\n',
				'sandbox/state.js': '',
				'scripts/setup.sh': '#!/bin/sh\n# See docs/setup.md.\necho "docs/also-missing.md"\n',
				'bench/run.js': '',
				'test/unit/docs/docs.test.ts': '',
			},
			['bench/results'],
		);
		expect(stalePointers('nodes/TenantApi/transport/pagination/readPage.ts', code)).toEqual([
			'nodes/TenantApi/transport/pagination/readPage.ts:4: README "Pagination": README.md has no heading "Pagination" (#pagination)',
			'nodes/TenantApi/transport/pagination/readPage.ts:4: docs/pagination.md "Where it stops": docs/pagination.md has no heading "Where it stops" (#where-it-stops)',
			'nodes/TenantApi/transport/pagination/readPage.ts:4: docs/pagination.md#no-such-anchor: docs/pagination.md has no heading with the anchor #no-such-anchor',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: fetchListing.ts: no file of that name in the repository',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: test/unit/fuzz: no file or folder test/unit/fuzz',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: docs/gone.md: no file or folder docs/gone.md',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: pagination/gone.ts: no file or folder nodes/TenantApi/transport/pagination/gone.ts',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: ./gone: no file or folder nodes/TenantApi/transport/pagination/gone',
			'nodes/TenantApi/transport/pagination/readPage.ts:5: test/harness/*.ts: no file or folder test/harness',
		]);
		expect(stalePointers('sandbox/api.js', code)).toEqual([
			'sandbox/api.js:1: ./limits: no file or folder sandbox/limits',
		]);
		expect(stalePointers('scripts/setup.sh', code)).toEqual([
			'scripts/setup.sh:2: docs/setup.md: no file or folder docs/setup.md',
		]);
	});
});

describe('the documentation', () => {
	test('has a README, a CONTRIBUTING guide, a manual in docs/, and code with comments to check', () => {
		expect(CHECKED.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
		expect(MANUAL.length).toBeGreaterThan(3);
		expect(CODE.length).toBeGreaterThan(100);
	});

	test.each(CHECKED)(
		'%s: every relative link and anchor resolves, every npm script and **Options → Name** exists',
		(file) => {
			expect([
				...brokenLinks(file, repository),
				...unknownScripts(file, read(file), manifest.scripts),
				...unknownOptions(file, read(file), options),
			]).toEqual([]);
		},
	);

	test.each(CODE)(
		'%s: every file, folder and README or docs section its comments name exists',
		(file) => expect(stalePointers(file, repository)).toEqual([]),
	);

	test.each(CODE.filter((file) => /^(nodes|credentials)\//.test(file)))(
		'%s: comment lines are at most 100 characters (a tab counts 2, as for the formatter)',
		(file) => {
			const long = commentLines(file, read(file))
				.filter(({ text }) => text.replace(/\t/g, '  ').length > 100)
				.map(({ line, text }) => `${line}: ${text.trim()}`);
			expect(long).toEqual([]);
		},
	);

	test('the README is read in ten minutes: at most 300 lines', () => {
		expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
	});

	test.each(PRODUCT_DOCS)(
		'%s: no internal issue numbers or benchmark run letters (history goes to CHANGELOG.md)',
		(file) => {
			const internal = read(file)
				.split('\n')
				.map((text, index) => `${index + 1}: ${text}`)
				.filter((line) => /[Ii]ssue [0-9]|\brun [A-O]\b|runs [A-O]/.test(line));
			expect(internal).toEqual([]);
		},
	);
});

describe('documentation links the package hands to n8n', () => {
	const links = handedLinks();

	test('the credentials and every node have documentation links', () => {
		expect(links.filter(([where]) => where.includes('documentationUrl'))).toHaveLength(
			manifest.n8n.credentials.length,
		);
		expect(links.filter(([where]) => where.includes('primaryDocumentation'))).toHaveLength(
			manifest.n8n.nodes.length,
		);
		expect(manifest.homepage.split('#')[0]).toBe(REPOSITORY);
	});

	test.each(links)('%s → %s is a section of the documentation in the repository', (_where, url) => {
		expect(url.startsWith(`${REPOSITORY}#`) || url.startsWith(`${REPOSITORY}/blob/`)).toBe(true);
		expect(url).toContain('#');
		expect(linkProblem('README.md', url, repository)).toBeUndefined();
	});
});
