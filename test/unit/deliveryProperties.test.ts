/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: Node's http and net to compare the model's headers with Node's, fs and process for the coverage report */
/**
 * The trigger's trust boundary, property-based (test/property/deliveries.ts): the same properties as `npm run fuzz`
 * with a fixed seed and fewer cases. Then what the cases reached (every setting value the node offers, written to
 * test-artifacts/delivery-coverage.txt and the console; each replay that keeps what was signed starting a workflow),
 * and the two pieces of the model that stand in for others: Node's header handling, and JSON as JSON.parse reads it.
 */
import { mkdirSync, writeFileSync } from 'fs';
import { createServer } from 'http';
import type { IncomingHttpHeaders } from 'http';
import { connect } from 'net';
import type { AddressInfo } from 'net';
import { join } from 'path';

import fc from 'fast-check';

import { jsonText, jsonValue, jsonStyle } from '../property/bodies';
import type { Json } from '../property/bodies';
import type { Verdict } from '../property/common';
import { holds } from '../property/common';
import { requiredCoverage } from '../property/coverage';
import { deliveryGroups } from '../property/deliveries';
import { SECRET_PLACES } from '../property/mutations';
import { readJsonText, sameValue } from '../property/reading';
import { KEEPING_KINDS } from '../property/replays';
import type { HeaderLines } from '../property/transport';
import { nodeHeaders, SPELLING_PARTS } from '../property/transport';

const SEED = 20261128;
/** Cases per property and row of VERIFICATIONS. */
const RUNS: Record<string, number> = {
	'mutated deliveries': 420,
	'genuine deliveries': 170,
	'replayed deliveries': 250,
	'arbitrary requests': 60,
};

/** Cases per setting value, and the outcomes of each kind of replay, over the runs below. */
const coverage = new Map<string, number>();
const replayOutcomes = new Map<string, string[]>();

function holdsAndCount(verdict: Verdict): void {
	for (const [dimension, value] of verdict.dims ?? []) {
		const key = `${dimension}: ${value}`;
		coverage.set(key, (coverage.get(key) ?? 0) + 1);
	}
	const kind = verdict.dims?.find(([dimension]) => dimension === 'replay')?.[1];
	if (kind !== undefined)
		replayOutcomes.set(kind, [...(replayOutcomes.get(kind) ?? []), verdict.outcome]);
	holds(verdict);
}

describe.each(deliveryGroups().map((group, index) => [group.label, group, index] as const))(
	'%s',
	(_label, group, index) => {
		it.each(group.properties.map((property, at) => [property.name, property, at] as const))(
			'%s',
			(_name, property, at) => {
				fc.assert(property.property(holdsAndCount), {
					seed: SEED + index * 4 + at,
					numRuns: RUNS[property.name],
				});
			},
		);
	},
);

describe('what the cases reached', () => {
	afterAll(() => {
		const lines = [...coverage]
			.sort((a, b) => a[0].localeCompare(b[0]))
			.map(([key, n]) => `${String(n).padStart(7)}  ${key}`);
		const folder = join(__dirname, '..', '..', 'test-artifacts');
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, 'delivery-coverage.txt'), `${lines.join('\n')}\n`);
		process.stdout.write(
			`delivery properties (seed ${SEED}): cases per setting value, written to test-artifacts/delivery-coverage.txt\n${lines.filter((line) => line.includes(' › ')).join('\n')}\n`,
		);
	});

	// Deliveries of one body told apart by another signed part (a header, the URL, the id); a secret sent where the
	// item shows the request (Authorization is always left out); bytes moved between signed parts.
	it.each([
		...requiredCoverage().map(([dimension, value]) => `${dimension}: ${value}`),
		'customHmac: captures: one body, other ids',
		'standardWebhooks: captures: one body, other ids',
		...[
			...SECRET_PLACES.filter((place) => place !== 'authorization').map(
				(place) => `place: ${place}`,
			),
			...SPELLING_PARTS,
		].map((part) => `secret sent where the item shows it: ${part}`),
	])('reached %s', (key) => {
		expect(coverage.get(key) ?? 0).toBeGreaterThan(0);
	});

	it('sent bytes moved between signed parts', () => {
		const moved = [...coverage.keys()].filter((key) =>
			key.startsWith('replay variant: bytes moved between the body and '),
		);
		expect(moved.length).toBeGreaterThan(0);
	});

	it.each(KEEPING_KINDS)('a replay %s started a workflow at least once', (kind) => {
		const started = (replayOutcomes.get(kind) ?? []).filter((o) => o.endsWith(': started'));
		expect(started.length).toBeGreaterThan(0);
	});
});

// ---- the model's stand-ins ----

/** What Node's own server makes of header lines (one request over loopback). */
async function nodeServerHeaders(lines: HeaderLines): Promise<IncomingHttpHeaders> {
	const server = createServer((req, res) => {
		res.end(JSON.stringify(req.headers));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		const { port } = server.address() as AddressInfo;
		const head = [
			'POST /hook HTTP/1.1',
			'Host: 127.0.0.1',
			'Connection: close',
			'Content-Length: 0',
			...lines.map(([name, value]) => `${name}: ${value}`),
		];
		const socket = connect(port, '127.0.0.1');
		socket.write(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
		const chunks: Buffer[] = [];
		for await (const chunk of socket) chunks.push(chunk as Buffer);
		const answer = Buffer.concat(chunks);
		return JSON.parse(
			answer.subarray(answer.indexOf('\r\n\r\n') + 4).toString('utf8'),
		) as IncomingHttpHeaders;
	} finally {
		server.close();
	}
}

const headerLines: fc.Arbitrary<HeaderLines> = fc.array(
	fc.tuple(
		fc.constantFrom(
			...'X-Signature x-signature webhook-id Content-Type cookie set-cookie user-agent X-Tenant'.split(
				' ',
			),
		),
		fc.oneof(
			fc.stringMatching(/^[ \t]?[\x21-\x7e\xa0-\xff][\x20-\x7e\xa0-\xff]{0,10}[ \t]?$/),
			fc.constant(''),
		),
	),
	{ maxLength: 6 },
);

describe('the model', () => {
	it('builds the headers of a request as Node does', async () => {
		await fc.assert(
			fc.asyncProperty(headerLines, async (lines) => {
				const theirs = await nodeServerHeaders(lines);
				const rest = { ...theirs };
				for (const own of ['host', 'connection', 'content-length']) delete rest[own];
				expect(rest).toEqual(nodeHeaders(lines));
			}),
			{ seed: SEED, numRuns: 40 },
		);
	});

	/** A JSON value with numbers a double holds exactly (as the JSON text spells them). */
	const exactNumbers = (value: Json): Json => {
		if (value.kind === 'number')
			return { kind: 'number', token: String(Number.parseInt(value.token, 10) % 1000 || 0) };
		if (value.kind === 'array') return { kind: 'array', items: value.items.map(exactNumbers) };
		if (value.kind === 'object')
			return {
				kind: 'object',
				entries: value.entries.map(([name, inner]) => [name, exactNumbers(inner)]),
			};
		return value;
	};

	it('reads JSON as JSON.parse does, where the numbers are exact (escapes, repeated names, __proto__, blanks)', () => {
		fc.assert(
			fc.property(jsonValue, jsonStyle, (value, style) => {
				const text = jsonText(exactNumbers(value), { ...style, around: 'none' });
				expect(sameValue(readJsonText(text)?.value, JSON.parse(text))).toBe(true);
			}),
			{ seed: SEED, numRuns: 2000 },
		);
	});
});
