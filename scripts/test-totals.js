'use strict';
/*
 * `npm test` runs several jest suites (unit/engine, e2e on two n8n versions, browser, queue mode).
 * As a jest reporter this file adds each suite's counts to test-artifacts/test-totals.json;
 * run as a script it resets that file (`reset`) or prints one closing line for the whole run.
 */
const fs = require('node:fs');
const path = require('node:path');

const FILE = path.join(__dirname, '..', 'test-artifacts', 'test-totals.json');

/** @returns {{ passed: number, failed: number, skipped: number, suites: { passed: number, failed: number, at: string }[] }} */
function read() {
	try {
		return JSON.parse(fs.readFileSync(FILE, 'utf8'));
	} catch {
		return { passed: 0, failed: 0, skipped: 0, suites: [] };
	}
}

class TestTotalsReporter {
	/**
	 * @param {unknown} _contexts
	 * @param {import('@jest/test-result').AggregatedResult} results
	 */
	onRunComplete(_contexts, results) {
		const totals = read();
		totals.passed += results.numPassedTests;
		totals.failed += results.numFailedTests;
		totals.skipped += results.numPendingTests + results.numTodoTests;
		totals.suites.push({
			passed: results.numPassedTests,
			failed: results.numFailedTests,
			at: new Date().toISOString(),
		});
		fs.mkdirSync(path.dirname(FILE), { recursive: true });
		fs.writeFileSync(FILE, JSON.stringify(totals, null, 2));
	}
}

module.exports = TestTotalsReporter;

if (require.main === module) {
	if (process.argv[2] === 'reset') {
		fs.rmSync(FILE, { force: true });
	} else {
		const { passed, failed, skipped } = read();
		console.log(`Totals: ${passed} passed, ${failed} failed, ${skipped} skipped`);
		if (failed > 0 || passed === 0) process.exitCode = 1;
	}
}
