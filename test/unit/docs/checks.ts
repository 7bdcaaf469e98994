/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: resolves documentation paths, runs in Node next to n8n, not in n8n Cloud */
/**
 * The documentation check's rules: links resolve to files of the repository and anchors to headings of
 * those files; scripts exist in package.json; options exist in the node descriptions. Each rule returns
 * the problems it finds as text (`file:line: what`), so an empty list is a pass.
 */
import * as path from 'node:path';
import type { INodeProperties } from 'n8n-workflow';

import type { Mention } from './markdown';
import { headingAnchors, markdownLinks, namedOptions, npmScripts } from './markdown';

/** The files a link may point at, by path relative to the repository root (`/` separators). */
export interface Repository {
	/** `https://github.com/<owner>/<name>`: links to it are checked like relative ones. */
	url: string;
	kind(relativePath: string): 'file' | 'directory' | undefined;
	read(relativePath: string): string;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\//i;
/** GitHub's line anchors on a source file: `#L10`, `#L10-L20`. */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

/**
 * Where a link leads inside the repository: a relative target resolved from the file's folder, or a URL of
 * the repository on GitHub (its front page is README.md; `/blob/<ref>/<path>` and `/tree/<ref>/<path>`).
 * Undefined for every other link (another site, or another page of GitHub).
 */
export function linkDestination(fromFile: string, target: string, repositoryUrl: string): { path: string; anchor?: string } | undefined {
	const [address, anchor] = splitAnchor(target);
	if (EXTERNAL.test(address)) {
		if (address === repositoryUrl || address === `${repositoryUrl}/`) return { path: 'README.md', anchor };
		const page = new RegExp(`^${escapeRegExp(repositoryUrl)}/(?:blob|tree)/[^/]+/(.+)$`).exec(address);
		return page ? { path: decodeURIComponent(page[1]), anchor } : undefined;
	}
	if (address === '') return { path: fromFile, anchor };
	if (address.startsWith('/')) return { path: address, anchor };
	const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), decodeURIComponent(address.split('?')[0])));
	return { path: resolved.replace(/\/$/, ''), anchor };
}

function splitAnchor(target: string): [string, string | undefined] {
	const hash = target.indexOf('#');
	return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Why a link of `fromFile` does not resolve, or undefined when it does (or leads outside the repository). */
export function linkProblem(fromFile: string, target: string, repository: Repository): string | undefined {
	const destination = linkDestination(fromFile, target, repository.url);
	if (!destination) return undefined;
	const { path: file, anchor } = destination;
	if (file === '..' || file.startsWith('../') || path.posix.isAbsolute(file)) return `${target}: leads outside the repository`;
	const kind = repository.kind(file);
	if (kind === undefined) return `${target}: no file ${file}`;
	if (anchor === undefined) return undefined;
	if (kind === 'directory') return `${target}: ${file} is a folder, it has no anchors`;
	if (!file.endsWith('.md')) return LINE_ANCHOR.test(anchor) ? undefined : `${target}: ${file} is not Markdown, only line anchors (#L10) work there`;
	return headingAnchors(repository.read(file)).has(anchor) ? undefined : `${target}: ${file} has no heading with the anchor #${anchor}`;
}

const located = (file: string, mentions: Mention[], problem: (text: string) => string | undefined): string[] =>
	mentions.flatMap(({ text, line }) => {
		const why = problem(text);
		return why === undefined ? [] : [`${file}:${line}: ${why}`];
	});

/** Links and anchors of a Markdown file of the repository that do not resolve. */
export function brokenLinks(file: string, repository: Repository): string[] {
	return located(file, markdownLinks(repository.read(file)), (target) => linkProblem(file, target, repository));
}

/** `npm run <script>`, `npm start` and `npm test` mentions whose script package.json does not have. */
export function unknownScripts(file: string, markdown: string, scripts: Record<string, string>): string[] {
	return located(file, npmScripts(markdown), (name) => (Object.hasOwn(scripts, name) ? undefined : `npm script "${name}" is not in package.json`));
}

/** **Options → Name** mentions whose name is no option's display name. */
export function unknownOptions(file: string, markdown: string, optionNames: Set<string>): string[] {
	return located(file, namedOptions(markdown), (name) => (optionNames.has(name) ? undefined : `"Options → ${name}" is no option of the nodes`));
}

/** The display names of every field inside the nodes' Options collections. */
export function optionDisplayNames(nodeProperties: INodeProperties[]): Set<string> {
	const collections = nodeProperties.filter((property) => property.name === 'options' && property.type === 'collection');
	return new Set(collections.flatMap((collection) => (collection.options as INodeProperties[]).map((option) => option.displayName)));
}
