/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: resolves documentation paths, runs in Node next to n8n, not in n8n Cloud */
/**
 * The documentation check's rules, pure functions over text so that docs.test.ts can feed them broken
 * samples: links resolve to files of the repository and anchors to their headings (GitHub's rules);
 * scripts exist in package.json; options exist in the node descriptions; the files and sections code
 * comments point at exist. Each returns its problems as `file:line: what`, so an empty list is a pass.
 */
import * as path from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import * as ts from 'typescript';

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

/** A link target, script, option, path or section as written, and its 1-based line. */
interface Mention {
	text: string;
	line: number;
}

const { posix } = path;

const kindOf = ({ files }: Repository, file: string) =>
	files.includes(file)
		? 'file'
		: files.some((name) => name.startsWith(`${file}/`))
			? 'directory'
			: undefined;

const lines = (text: string): Mention[] =>
	text.split('\n').map((line, index) => ({ text: line, line: index + 1 }));

/** The text with its fenced code blocks blanked, fences included (line numbers kept). */
const outsideCode = (markdown: string) =>
	markdown.replace(/^ {0,3}(`{3,}|~{3,})[^]*?(?:^ {0,3}\1|(?![^]))/gm, (block) =>
		block.replace(/[^\n]/g, ''),
	);

/** Lines of prose: outside code blocks, inline code spans replaced (a link there is an example). */
const prose = (markdown: string) => lines(outsideCode(markdown).replace(/(`+)[^`\n]*?\1/g, 'code'));

/** The first group of each match of `pattern` in the lines, with its line. */
const found = (mentions: Mention[], pattern: RegExp, clean = (text: string) => text) =>
	mentions.flatMap(({ text, line }) =>
		[...text.matchAll(pattern)].map((match) => ({
			text: clean(match.slice(1).find((group) => group !== undefined) as string),
			line,
		})),
	);

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text in lower case, every character that is
 * not a letter, mark, number, connector, hyphen or space dropped, each space a hyphen.
 */
const githubAnchor = (heading: string) =>
	heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>|[*`]/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');

/** The anchors of a file's headings, repeated ones numbered as GitHub does (`trigger`, `trigger-1`). */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	for (const { text } of found(
		lines(outsideCode(markdown)),
		/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/g,
	)) {
		let anchor = githubAnchor(text);
		for (let n = 1; anchors.has(anchor); n++) anchor = `${githubAnchor(text)}-${n}`;
		anchors.add(anchor);
	}
	return anchors;
}

/** Inline links and images, HTML `href`/`src`, reference definitions. */
const LINK =
	/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"|^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g;

/**
 * Where a link leads inside the repository: a relative target resolved from the file's folder, or a URL of
 * the repository on GitHub (its front page is README.md; `/blob/<ref>/<path>` and `/tree/<ref>/<path>`).
 * Undefined for every other link (another site, or another page of GitHub).
 */
function linkDestination(fromFile: string, target: string, repositoryUrl: string) {
	const [address, anchor] = target.split(/#(.*)/s) as [string, string | undefined];
	if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(address)) {
		if (address.replace(/\/$/, '') === repositoryUrl) return { file: 'README.md', anchor };
		const page =
			address.startsWith(`${repositoryUrl}/`) &&
			/^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(address.slice(repositoryUrl.length));
		return page ? { file: decodeURIComponent(page[1]), anchor } : undefined;
	}
	if (address === '' || address.startsWith('/')) return { file: address || fromFile, anchor };
	const resolved = posix.join(posix.dirname(fromFile), decodeURIComponent(address.split('?')[0]));
	return { file: resolved.replace(/\/$/, ''), anchor };
}

/** Why a link of `fromFile` does not resolve, or undefined when it does (or leads outside the repository). */
export function linkProblem(fromFile: string, target: string, repository: Repository) {
	const destination = linkDestination(fromFile, target, repository.url);
	if (!destination) return undefined;
	const { file, anchor } = destination;
	if (file === '..' || file.startsWith('../') || posix.isAbsolute(file))
		return `${target}: leads outside the repository`;
	const kind = kindOf(repository, file);
	if (kind === undefined) return `${target}: no file ${file}`;
	if (anchor === undefined) return undefined;
	if (kind === 'directory') return `${target}: ${file} is a folder, it has no anchors`;
	if (!file.endsWith('.md'))
		return /^L\d+(-L\d+)?$/.test(anchor)
			? undefined
			: `${target}: ${file} is not Markdown, only line anchors (#L10) work there`;
	return headingAnchors(repository.read(file)).has(anchor)
		? undefined
		: `${target}: ${file} has no heading with the anchor #${anchor}`;
}

const located = <M extends Mention>(file: string, mentions: M[], problem: (m: M) => unknown) =>
	mentions.flatMap((mention) => {
		const why = problem(mention);
		return why ? [`${file}:${mention.line}: ${why}`] : [];
	});

/** Links and anchors of a Markdown file of the repository that do not resolve. */
export const brokenLinks = (file: string, repository: Repository) =>
	located(file, found(prose(repository.read(file)), LINK), ({ text }) =>
		linkProblem(file, text, repository),
	);

/** `npm run <script>`, `npm start` and `npm test` anywhere (code blocks too) that package.json does not have. */
export const unknownScripts = (file: string, markdown: string, scripts: Record<string, string>) =>
	located(
		file,
		found(
			lines(markdown),
			/\bnpm\s+(?:run(?:-script)?\s+([A-Za-z0-9][\w:-]*)|(start|test)\b)/g,
			(name) => name.replace(/[:-]+$/, ''),
		),
		({ text }) => !Object.hasOwn(scripts, text) && `npm script "${text}" is not in package.json`,
	);

/** **Options → Name** mentions in the prose whose name is no option's display name. */
export const unknownOptions = (file: string, markdown: string, optionNames: Set<string>) =>
	located(
		file,
		found(prose(markdown), /\*\*Options → ([^*]+?)\*\*/g, (name) => name.trim()),
		({ text }) => !optionNames.has(text) && `"Options → ${text}" is no option of the nodes`,
	);

/** The display names of every field inside the nodes' Options collections. */
export const optionDisplayNames = (properties: INodeProperties[]) =>
	new Set(
		properties
			.filter(({ name, type }) => name === 'options' && type === 'collection')
			.flatMap(({ options }) => (options as INodeProperties[]).map((o) => o.displayName)),
	);

/** Every comment line of a JavaScript or TypeScript source (TypeScript's scanner: `//` in a string is none), or a shell script's `#` lines. */
export function commentLines(fileName: string, source: string): Mention[] {
	if (fileName.endsWith('.sh')) return lines(source).filter((l) => /^\s*#(?!!)/.test(l.text));
	const kind = fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
	const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
	const ranges = new Map<number, number>();
	const visit = (node: ts.Node) => {
		for (const { pos, end } of [
			...(ts.getLeadingCommentRanges(source, node.getFullStart()) ?? []),
			...(ts.getTrailingCommentRanges(source, node.getEnd()) ?? []),
		])
			ranges.set(pos, end);
		node.getChildren(file).forEach(visit);
	};
	visit(file);
	return [...ranges]
		.flatMap(([pos, end]) => {
			const first = file.getLineAndCharacterOfPosition(pos).line;
			return lines(source.slice(pos, end)).map(({ text, line }) => ({ text, line: line + first }));
		})
		.sort((a, b) => a.line - b.line);
}

/** A section a comment names: its file as written (`README`, `docs/trigger.md`), the anchor given after `#` or
 * GitHub's of the heading named, and that heading. */
type SectionMention = Mention & { doc: string; anchor: string; heading?: string };

/** Markdown files as comments name them: the root's README, CONTRIBUTING and CHANGELOG with or without `.md`, or a path. */
const DOC = String.raw`(?:README|CONTRIBUTING|CHANGELOG)(?:\.md)?|(?:\.{1,2}/)?[\w-][\w./-]*\.md`;
const NAMED_SECTION = new RegExp(
	String.raw`(?<![\w/.-])(${DOC}),? ["“]([^"”]+)["”]|\((${DOC}), ([A-Z][^()"“”,;:]*)\)`,
	'g',
);
const ANCHORED_SECTION = new RegExp(String.raw`(?<![\w/.-])(${DOC})#([\w-]+)`, 'g');
/** A path-like word: segments of letters, digits, `.`, `-`, `_` (and `*` globs) joined by `/`. */
const PATH = /(?<![\w@/.:-])((?:\.{1,2}\/)?[\w-][\w.-]*(?:\/[\w.*-]+)*\/?)/g;
/** A file a comment may name without a folder: source and docs (a `.json` alone is most often a tool's output). */
const FILE_NAME = /\.(?:ts|js|mjs|cjs|md|sh)$/;

/**
 * The file paths and Markdown sections the comments name. A word is a path when it has a `/` or is a file
 * name with one of the usual extensions; URLs, npm scopes (`@n8n/…`), `/absolute` paths (routes such as
 * `/v1/transfers`), `.hidden/…` paths (n8n's `.n8n/nodes`) and text in double quotes (a value, a message,
 * a heading) are none. A path that names a section's file is the section's.
 */
function codePointers(comments: Mention[]) {
	const paths: Mention[] = [];
	const sections: SectionMention[] = [];
	for (const { text: raw, line } of comments) {
		const text = raw.replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ');
		for (const [, ...groups] of text.matchAll(NAMED_SECTION)) {
			const [doc, heading] = groups[0] ? groups : groups.slice(2);
			sections.push({
				text: `${doc} "${heading}"`,
				line,
				doc,
				heading,
				anchor: githubAnchor(heading),
			});
		}
		for (const [, doc, anchor] of text.matchAll(ANCHORED_SECTION))
			sections.push({ text: `${doc}#${anchor}`, line, doc, anchor });
		for (const match of text.replace(/"[^"]*"|“[^”]*”/g, ' ').matchAll(PATH)) {
			const word = match[1].replace(/[.,:;)]+$/, '').replace(/\/$/, '');
			const named = sections.some((section) => section.line === line && section.doc === word);
			if ((word.includes('/') || FILE_NAME.test(word)) && !named) paths.push({ text: word, line });
		}
	}
	return { paths, sections };
}

/** The folders a comment of `file` may write a path from: the file's own, then each parent up to the root (''). */
function folderChain(file: string): string[] {
	const chain: string[] = [];
	for (let folder = posix.dirname(file); folder !== '.'; folder = posix.dirname(folder))
		chain.push(folder);
	return [...chain, ''];
}

/** A module path may leave out its extension (`./checks` is checks.ts), `.d.ts`, `/index`. */
const exists = (repository: Repository, file: string) =>
	['', '.ts', '.js', '.d.ts', '/index.ts', '/index.js'].some((suffix) =>
		kindOf(repository, file + suffix),
	);

/**
 * Why a path named in a comment of `fromFile` does not exist, or undefined. A path that starts with `./` or
 * `../` is read from the file's folder (or, `./`, from the root, as in a command shown); a file name alone
 * (`exchange.ts`) from the file's folder or a parent, or anywhere in the repository; any other path from
 * the root or from the folder of the file or a parent (`transport/apiUrl.ts` in nodes/TenantApi/actions/).
 * A path whose first segment is no folder there is another project's (n8n's `packages/cli/…`) or no path
 * at all (`application/json`), and is not checked. A glob (`test/harness/*.ts`) must have its folder.
 */
function pathProblem(fromFile: string, written: string, repository: Repository) {
	const glob = written.indexOf('*');
	const target = glob < 0 ? written : written.slice(0, Math.max(0, written.lastIndexOf('/', glob)));
	const chain = folderChain(fromFile);
	if (/^\.{1,2}\//.test(target)) {
		const resolved = posix.join(chain[0], target);
		const fromRoot = target.startsWith('./') && exists(repository, posix.normalize(target));
		return exists(repository, resolved) || fromRoot || repository.ignored(resolved)
			? undefined
			: `${written}: no file or folder ${resolved}`;
	}
	if (!target.includes('/'))
		return chain.some((folder) => exists(repository, posix.join(folder, target))) ||
			repository.files.some((file) => posix.basename(file) === target)
			? undefined
			: `${written}: no file of that name in the repository`;
	const candidates = chain
		.filter(
			(folder) => kindOf(repository, posix.join(folder, target.split('/')[0])) === 'directory',
		)
		.map((folder) => posix.join(folder, target));
	return candidates.length === 0 ||
		candidates.some((file) => exists(repository, file) || repository.ignored(file))
		? undefined
		: `${written}: no file or folder ${candidates.join(' or ')}`;
}

/**
 * Why a section named in a comment of `fromFile` does not exist, or undefined. `README` is the README of the
 * file's folder or a parent's; a heading may be named by its first words ("CPU per request" for "CPU per
 * request against n8n's floor").
 */
function sectionProblem(fromFile: string, section: SectionMention, repository: Repository) {
	const { doc, anchor, heading } = section;
	const name = doc.endsWith('.md') ? doc : `${doc}.md`;
	const files = (/^\.{1,2}\//.test(name) ? [posix.dirname(fromFile)] : folderChain(fromFile))
		.map((folder) => posix.join(folder, name))
		.filter((file) => kindOf(repository, file) === 'file');
	if (files.length === 0) return `${section.text}: no file ${doc}`;
	const has = (file: string) =>
		[...headingAnchors(repository.read(file))].some(
			(found) => found === anchor || (heading !== undefined && found.startsWith(`${anchor}-`)),
		);
	if (files.some(has)) return undefined;
	const what = heading === undefined ? `with the anchor #${anchor}` : `"${heading}" (#${anchor})`;
	return `${section.text}: ${files.join(' or ')} has no heading ${what}`;
}

/** Files and README/docs sections named in the comments of a code file that do not exist. */
export function stalePointers(file: string, repository: Repository): string[] {
	const { paths, sections } = codePointers(commentLines(file, repository.read(file)));
	return [
		...located(file, paths, ({ text }) => pathProblem(file, text, repository)),
		...located(file, sections, (section) => sectionProblem(file, section, repository)),
	].sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1]));
}
