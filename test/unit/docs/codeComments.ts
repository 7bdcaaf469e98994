/**
 * What the documentation check reads from the comments of the code: the repository files and the README
 * or docs sections they point at. Pure functions over text (the comments are found with TypeScript's own
 * scanner, so that `//` in a string or a URL is no comment), so that the check's test can feed them
 * broken samples.
 */
import * as ts from 'typescript';

import type { Mention } from './markdown';
import { githubAnchor } from './markdown';

/** A pointer to a section of a Markdown file: `README "Rate limits"`, `docs/trigger.md#answers`, `(docs/benchmarks.md, Machine)`. */
export interface SectionMention extends Mention {
	/** The file as written: `README`, `CONTRIBUTING.md`, `docs/trigger.md`. */
	doc: string;
	/** The heading's anchor: given after `#`, or GitHub's anchor of the heading named. */
	anchor: string;
	/** The heading as written, when named rather than given as an anchor. */
	heading?: string;
}

/** Every comment of a JavaScript or TypeScript source (a shell script: its `#` comments), line by line. */
export function commentLines(fileName: string, source: string): Mention[] {
	if (fileName.endsWith('.sh')) {
		return source
			.split('\n')
			.flatMap((text, index) => (/^\s*#(?!!)/.test(text) ? [{ text, line: index + 1 }] : []));
	}
	const file = ts.createSourceFile(
		fileName,
		source,
		ts.ScriptTarget.Latest,
		false,
		fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS,
	);
	const starts = new Set<number>();
	const comments: Mention[] = [];
	const collect = (ranges: ts.CommentRange[] | undefined) => {
		for (const range of ranges ?? []) {
			if (starts.has(range.pos)) continue;
			starts.add(range.pos);
			const firstLine = file.getLineAndCharacterOfPosition(range.pos).line + 1;
			source
				.slice(range.pos, range.end)
				.split('\n')
				.forEach((text, offset) => comments.push({ text, line: firstLine + offset }));
		}
	};
	const visit = (node: ts.Node) => {
		collect(ts.getLeadingCommentRanges(source, node.getFullStart()));
		collect(ts.getTrailingCommentRanges(source, node.getEnd()));
		node.getChildren(file).forEach(visit);
	};
	visit(file);
	return comments.sort((a, b) => a.line - b.line);
}

/** Markdown files as comments name them: the root's README, CONTRIBUTING and CHANGELOG with or without `.md`, or a path. */
const DOC = String.raw`(?:README|CONTRIBUTING|CHANGELOG)(?:\.md)?|(?:\.{1,2}/)?[\w-][\w./-]*\.md`;
const QUOTED_SECTION = new RegExp(String.raw`(?<![\w/.-])(${DOC}),? ["“]([^"”]+)["”]`, 'g');
const PARENTHESISED_SECTION = new RegExp(String.raw`\((${DOC}), ([A-Z][^()"“”,;:]*)\)`, 'g');
const ANCHORED_SECTION = new RegExp(String.raw`(?<![\w/.-])(${DOC})#([\w-]+)`, 'g');

/** A path-like word: segments of letters, digits, `.`, `-`, `_` (and `*` globs) joined by `/`. */
const PATH = /(?<![\w@/.:-])((?:\.{1,2}\/)?[\w-][\w.-]*(?:\/[\w.*-]+)*\/?)/g;
/**
 * Extensions of the files a comment may name without a folder: source and docs. A `.json` name alone is
 * most often a file a tool writes (report.json), so only a `.json` path with a folder counts.
 */
const FILE_NAME = /\.(?:ts|js|mjs|cjs|md|sh)$/;

/** Strips what follows a path in prose: a full stop, a comma, a colon, a closing parenthesis. */
const trimmed = (word: string) => word.replace(/[.,:;)]+$/, '');

/**
 * The file paths and Markdown sections the comments name. A word is a path when it has a `/` or is a file
 * name with one of the usual extensions; URLs, npm scopes (`@n8n/…`), `/absolute` paths (routes such as
 * `/v1/transfers`) and `.hidden/…` paths (n8n's `.n8n/nodes`) are none. Whether a path belongs to this
 * repository is decided by the check.
 */
export function codePointers(comments: Mention[]) {
	const paths: Mention[] = [];
	const sections: SectionMention[] = [];
	for (const { text: raw, line } of comments) {
		const text = raw.replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ');
		for (const [, doc, heading] of [
			...text.matchAll(QUOTED_SECTION),
			...text.matchAll(PARENTHESISED_SECTION),
		]) {
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
		// Text in double quotes is a value or a message ("Test.node.ts"), or a heading named above.
		for (const match of text.replace(/"[^"]*"|“[^”]*”/g, ' ').matchAll(PATH)) {
			const word = trimmed(match[1]).replace(/\/$/, '');
			if (word.includes('/') || FILE_NAME.test(word)) paths.push({ text: word, line });
		}
	}
	return { paths, sections };
}
