'use strict';
/*
 * The Jest reporter of jest.config.js: prints how long each project's files took and adds the run's counts to
 * TEST_TOTALS_FILE, which scripts/test.js (several Jest runs) resets first and sums up in one closing line.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The counts of one scripts/test.js run, named in the environment of its Jest runs: two runs at once keep apart. */
const FILE = () => process.env.TEST_TOTALS_FILE ?? '';

/** @returns {{ passed: number, failed: number, skipped: number }} */
function read() {
	try {
		return JSON.parse(fs.readFileSync(FILE(), 'utf8'));
	} catch {
		return { passed: 0, failed: 0, skipped: 0 };
	}
}

class TestTotalsReporter {
	/**
	 * @param {unknown} _contexts
	 * @param {import('@jest/test-result').AggregatedResult} results
	 */
	onRunComplete(_contexts, results) {
		for (const line of projectTimes(results.testResults)) process.stderr.write(`[test] ${line}\n`);
		if (!FILE()) return;
		const totals = read();
		totals.passed += results.numPassedTests;
		totals.failed += results.numFailedTests;
		totals.skipped += results.numPendingTests + results.numTodoTests;
		fs.writeFileSync(FILE(), JSON.stringify(totals, null, 2));
	}
}

/**
 * Per Jest project: its files, and the time from its first file's start to its last file's end.
 * @param {import('@jest/test-result').TestResult[]} files
 */
function projectTimes(files) {
	/** @type {Map<string, { files: number, start: number, end: number }>} */
	const byProject = new Map();
	for (const { displayName, perfStats } of files) {
		const name = displayName?.name ?? '(no project)';
		const p = byProject.get(name) ?? { files: 0, start: Infinity, end: 0 };
		byProject.set(name, {
			files: p.files + 1,
			start: Math.min(p.start, perfStats.start),
			end: Math.max(p.end, perfStats.end),
		});
	}
	return [...byProject].map(
		([name, p]) => `  ${name}: ${p.files} files in ${Math.round((p.end - p.start) / 1000)} s`,
	);
}

TestTotalsReporter.reset = () => {
	process.env.TEST_TOTALS_FILE = path.join(
		os.tmpdir(),
		`tenant-api-test-totals-${process.pid}.json`,
	);
	fs.rmSync(FILE(), { force: true });
};

/** `Totals: N passed, N failed, N skipped`, and whether the run passed (some test passed, none failed); undefined when no Jest run reported. */
TestTotalsReporter.closingLine = () => {
	if (!fs.existsSync(FILE())) return undefined;
	const { passed, failed, skipped } = read();
	fs.rmSync(FILE());
	return {
		line: `Totals: ${passed} passed, ${failed} failed, ${skipped} skipped`,
		ok: failed === 0 && passed > 0,
	};
};

module.exports = TestTotalsReporter;
