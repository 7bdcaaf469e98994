/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: resolves documentation paths, runs in Node next to n8n, not in n8n Cloud */
/**
 * The documentation check's rules: links resolve to files of the repository and anchors to headings of
 * those files; scripts exist in package.json; options exist in the node descriptions; the files and
 * sections code comments point at exist. Each rule returns the problems it finds as text
 * (`file:line: what`), so an empty list is a pass.
 */
import * as path from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import type { SectionMention } from './codeComments';
import { codePointers, commentLines } from './codeComments';
import type { Mention } from './markdown';
import { headingAnchors, markdownLinks, namedOptions, npmScripts } from './markdown';

/** The repository's files, by path relative to its root (`/` separators). */
export interface Repository {
	/** `https://github.com/<owner>/<name>`: links to it are checked like relative ones. */
	url: string;
	/** Every file: tracked, and new ones git does not ignore. */
	files: string[];
	read(relativePath: string): string;
	/** Whether git ignores the path: what the tools write (bench/results), named in comments but never committed. */
	ignored(relativePath: string): boolean;
}

const kindOf = ({ files }: Repository, file: string) =>
	files.includes(file)
		? 'file'
		: files.some((name) => name.startsWith(`${file}/`))
			? 'directory'
			: undefined;

const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\//i;
/** GitHub's line anchors on a source file: `#L10`, `#L10-L20`. */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

/**
 * Where a link leads inside the repository: a relative target resolved from the file's folder, or a URL of
 * the repository on GitHub (its front page is README.md; `/blob/<ref>/<path>` and `/tree/<ref>/<path>`).
 * Undefined for every other link (another site, or another page of GitHub).
 */
function linkDestination(fromFile: string, target: string, repositoryUrl: string) {
	const [address, anchor] = target.split(/#(.*)/s) as [string, string | undefined];
	if (EXTERNAL.test(address)) {
		if (address.replace(/\/$/, '') === repositoryUrl) return { path: 'README.md', anchor };
		const page =
			address.startsWith(`${repositoryUrl}/`) &&
			/^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(address.slice(repositoryUrl.length));
		return page ? { path: decodeURIComponent(page[1]), anchor } : undefined;
	}
	if (address === '') return { path: fromFile, anchor };
	if (address.startsWith('/')) return { path: address, anchor };
	const resolved = path.posix.join(
		path.posix.dirname(fromFile),
		decodeURIComponent(address.split('?')[0]),
	);
	return { path: resolved.replace(/\/$/, ''), anchor };
}

/** Why a link of `fromFile` does not resolve, or undefined when it does (or leads outside the repository). */
export function linkProblem(
	fromFile: string,
	target: string,
	repository: Repository,
): string | undefined {
	const destination = linkDestination(fromFile, target, repository.url);
	if (!destination) return undefined;
	const { path: file, anchor } = destination;
	if (file === '..' || file.startsWith('../') || path.posix.isAbsolute(file))
		return `${target}: leads outside the repository`;
	const kind = kindOf(repository, file);
	if (kind === undefined) return `${target}: no file ${file}`;
	if (anchor === undefined) return undefined;
	if (kind === 'directory') return `${target}: ${file} is a folder, it has no anchors`;
	if (!file.endsWith('.md'))
		return LINE_ANCHOR.test(anchor)
			? undefined
			: `${target}: ${file} is not Markdown, only line anchors (#L10) work there`;
	return headingAnchors(repository.read(file)).has(anchor)
		? undefined
		: `${target}: ${file} has no heading with the anchor #${anchor}`;
}

const located = <M extends Mention>(
	file: string,
	mentions: M[],
	problem: (mention: M) => string | undefined,
): string[] =>
	mentions.flatMap((mention) => {
		const why = problem(mention);
		return why === undefined ? [] : [`${file}:${mention.line}: ${why}`];
	});

/** Links and anchors of a Markdown file of the repository that do not resolve. */
export function brokenLinks(file: string, repository: Repository): string[] {
	return located(file, markdownLinks(repository.read(file)), ({ text }) =>
		linkProblem(file, text, repository),
	);
}

/** `npm run <script>`, `npm start` and `npm test` mentions whose script package.json does not have. */
export function unknownScripts(
	file: string,
	markdown: string,
	scripts: Record<string, string>,
): string[] {
	return located(file, npmScripts(markdown), ({ text: name }) =>
		Object.hasOwn(scripts, name) ? undefined : `npm script "${name}" is not in package.json`,
	);
}

/** **Options → Name** mentions whose name is no option's display name. */
export function unknownOptions(file: string, markdown: string, optionNames: Set<string>): string[] {
	return located(file, namedOptions(markdown), ({ text: name }) =>
		optionNames.has(name) ? undefined : `"Options → ${name}" is no option of the nodes`,
	);
}

/** The display names of every field inside the nodes' Options collections. */
export function optionDisplayNames(nodeProperties: INodeProperties[]): Set<string> {
	const collections = nodeProperties.filter(
		(property) => property.name === 'options' && property.type === 'collection',
	);
	return new Set(
		collections.flatMap((collection) =>
			(collection.options as INodeProperties[]).map((option) => option.displayName),
		),
	);
}

/** The folders a comment of `file` may write a path from: the file's own, then each parent up to the root (''). */
function folderChain(file: string): string[] {
	const chain: string[] = [];
	let folder = path.posix.dirname(file);
	for (; folder !== '.'; folder = path.posix.dirname(folder)) chain.push(folder);
	return [...chain, ''];
}

const inFolder = (folder: string, relativePath: string) =>
	path.posix.normalize(folder === '' ? relativePath : `${folder}/${relativePath}`);

/** What a module path may leave out: its extension (`./markdown` is markdown.ts), `.d.ts`, `/index`. */
const MODULE_SUFFIXES = ['', '.ts', '.js', '.d.ts', '/index.ts', '/index.js'];

const exists = (repository: Repository, file: string) =>
	MODULE_SUFFIXES.some((suffix) => kindOf(repository, file + suffix) !== undefined);

/**
 * Why a path named in a comment of `fromFile` does not exist, or undefined. A path that starts with `./` or
 * `../` is read from the file's folder (or, `./`, from the root, as in a command shown); a file name alone
 * (`exchange.ts`) from the file's folder or a parent, or anywhere in the repository; any other path from
 * the root or from the folder of the file or a parent (`transport/apiUrl.ts` in nodes/TenantApi/actions/).
 * A path whose first segment is no folder there is another project's (n8n's `packages/cli/…`) or no path
 * at all (`application/json`), and is not checked. A glob (`test/harness/*.ts`) must have its folder.
 */
function pathProblem(
	fromFile: string,
	written: string,
	repository: Repository,
): string | undefined {
	const glob = written.indexOf('*');
	const target = glob < 0 ? written : written.slice(0, Math.max(0, written.lastIndexOf('/', glob)));
	if (/^\.{1,2}\//.test(target)) {
		const resolved = inFolder(path.posix.dirname(fromFile), target);
		if (
			exists(repository, resolved) ||
			(target.startsWith('./') && exists(repository, path.posix.normalize(target)))
		)
			return undefined;
		return repository.ignored(resolved) ? undefined : `${written}: no file or folder ${resolved}`;
	}
	const chain = folderChain(fromFile);
	if (!target.includes('/')) {
		if (chain.some((folder) => exists(repository, inFolder(folder, target)))) return undefined;
		return repository.files.some((file) => path.posix.basename(file) === target)
			? undefined
			: `${written}: no file of that name in the repository`;
	}
	const first = target.split('/')[0];
	const bases = chain.filter(
		(folder) => kindOf(repository, inFolder(folder, first)) === 'directory',
	);
	if (bases.length === 0) return undefined;
	const candidates = bases.map((folder) => inFolder(folder, target));
	if (
		candidates.some((candidate) => exists(repository, candidate) || repository.ignored(candidate))
	)
		return undefined;
	return `${written}: no file or folder ${candidates.join(' or ')}`;
}

/** The Markdown files a section pointer may mean: `README` is the README of the file's folder or a parent's. */
function sectionFiles(fromFile: string, doc: string, repository: Repository): string[] {
	const name = doc.endsWith('.md') ? doc : `${doc}.md`;
	const folders = /^\.{1,2}\//.test(name) ? [path.posix.dirname(fromFile)] : folderChain(fromFile);
	return folders
		.map((folder) => inFolder(folder, name))
		.filter((file) => kindOf(repository, file) === 'file');
}

/** Whether a file has the heading: the anchor given, or a heading named by its text or its first words. */
const hasSection = (markdown: string, { anchor, heading }: SectionMention) =>
	[...headingAnchors(markdown)].some(
		(found) => found === anchor || (heading !== undefined && found.startsWith(`${anchor}-`)),
	);

/**
 * Why a section named in a comment of `fromFile` does not exist, or undefined. A heading may be named by its
 * first words ("CPU per request" for "CPU per request against n8n's floor").
 */
function sectionProblem(
	fromFile: string,
	section: SectionMention,
	repository: Repository,
): string | undefined {
	const files = sectionFiles(fromFile, section.doc, repository);
	if (files.length === 0) return `${section.text}: no file ${section.doc}`;
	if (files.some((file) => hasSection(repository.read(file), section))) return undefined;
	const what =
		section.heading === undefined
			? `with the anchor #${section.anchor}`
			: `"${section.heading}" (#${section.anchor})`;
	return `${section.text}: ${files.join(' or ')} has no heading ${what}`;
}

/** Files and README/docs sections named in the comments of a code file that do not exist. */
export function stalePointers(file: string, repository: Repository): string[] {
	const { paths, sections } = codePointers(commentLines(file, repository.read(file)));
	const named = new Set(sections.map(({ doc, line }) => `${line}:${doc}`));
	const ownPaths = paths.filter(({ text, line }) => !named.has(`${line}:${text}`));
	return [
		...located(file, ownPaths, ({ text }) => pathProblem(file, text, repository)),
		...located(file, sections, (section) => sectionProblem(file, section, repository)),
	].sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1]));
}
