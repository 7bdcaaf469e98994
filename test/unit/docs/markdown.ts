/**
 * What the documentation check reads from a Markdown file: its headings' anchors (GitHub's rules), its
 * links, the `npm` scripts and the node options it names. Pure functions over text, so that the check's
 * own test can feed them broken samples.
 */

export interface Mention {
	/** The link target, script name or option name, as written. */
	text: string;
	/** 1-based line of the file. */
	line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Every line, marked when it lies inside a fenced code block (the fence lines included). */
function lines(markdown: string) {
	let fence: string | undefined;
	return markdown.split('\n').map((text, index) => {
		const marker = FENCE.exec(text)?.[1];
		const opens = fence === undefined && marker !== undefined;
		const closes =
			fence !== undefined &&
			marker !== undefined &&
			marker[0] === fence[0] &&
			marker.length >= fence.length;
		const line = { text, line: index + 1, code: fence !== undefined || opens };
		if (opens) fence = marker;
		else if (closes) fence = undefined;
		return line;
	});
}

/** Lines of prose: outside code blocks, inline code spans (`…`, ``…``) replaced (a link there is an example). */
const prose = (markdown: string) =>
	lines(markdown)
		.filter((line) => !line.code)
		.map((line) => ({ ...line, text: line.text.replace(/(`+)[^`]*?\1/g, 'code') }));

/**
 * GitHub's anchor for a heading (github-slugger, as github.com renders README and docs pages): the rendered
 * text in lower case, every character that is not a letter, mark, number, connector, hyphen or space
 * dropped, each space a hyphen. `Account → Get Many` gives `account--get-many`.
 */
export function githubAnchor(heading: string): string {
	const rendered = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/[*`]/g, '');
	return rendered
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** The anchors of a file's headings, repeated ones numbered as GitHub does (`trigger`, `trigger-1`). */
export function headingAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	for (const { text } of lines(markdown).filter((line) => !line.code)) {
		const heading = ATX_HEADING.exec(text);
		if (!heading) continue;
		const base = githubAnchor(heading[1]);
		let anchor = base;
		for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
		anchors.add(anchor);
	}
	return anchors;
}

const INLINE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/;
const HTML_LINK = /<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g;

/** Every link and image target of the prose: inline, reference definitions and HTML `href`/`src`. */
export function markdownLinks(markdown: string): Mention[] {
	return prose(markdown).flatMap(({ text, line }) => {
		const targets = [...text.matchAll(INLINE_LINK), ...text.matchAll(HTML_LINK)].map(
			(match) => match[1],
		);
		const definition = REFERENCE_DEFINITION.exec(text)?.[1];
		return [...targets, ...(definition ? [definition] : [])].map((target) => ({
			text: target,
			line,
		}));
	});
}

const NPM_SCRIPT = /\bnpm\s+(?:run(?:-script)?\s+([A-Za-z0-9][\w:-]*)|(start|test)\b)/g;

/** Every `npm run <script>` (and `npm start`, `npm test`) anywhere in the file, code blocks included. */
export function npmScripts(markdown: string): Mention[] {
	return lines(markdown).flatMap(({ text, line }) =>
		[...text.matchAll(NPM_SCRIPT)].map((match) => ({
			text: (match[1] ?? match[2]).replace(/[:-]+$/, ''),
			line,
		})),
	);
}

const NAMED_OPTION = /\*\*Options → ([^*]+?)\*\*/g;

/** Every option named as **Options → Name** in the prose. */
export function namedOptions(markdown: string): Mention[] {
	return prose(markdown).flatMap(({ text, line }) =>
		[...text.matchAll(NAMED_OPTION)].map((match) => ({ text: match[1].trim(), line })),
	);
}
