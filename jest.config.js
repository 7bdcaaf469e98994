/**
 * Every test suite of the project, one Jest project each (`--selectProjects <name>`):
 *
 *   unit      pure modules and the sandbox
 *   engine    the built package (dist/) in n8n-core's WorkflowExecute / WebhookContext
 *   e2e-2x    a real n8n 2.x with the packed package installed as a community package
 *   e2e-1x    the same tests on n8n 1.x (the last 1.x, on Node 20), but the packaging ones
 *   browser   the n8n 2.x editor in Debian's chromium
 *   queue     n8n 2.x in queue mode (Redis, PostgreSQL, main, 2 workers, a webhook processor)
 *
 * The versions are scripts/n8n/install.js's DEFAULT_VERSION (2.x) and LEGACY_VERSION (1.x), named only there.
 *
 * `npx jest` runs unit and engine (build first). The last four start a real n8n and install the packed
 * package: they exist only when TEST_TARBALL names it, and must never run two at a time. scripts/test.js
 * builds and packs once, installs what they need and runs them one after the other in band:
 * `npm run e2e | e2e:1x | test:browser | test:queue`, and `npm test` for everything (see README).
 */
const installer = require('./scripts/n8n/install');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };

function project(displayName, roots, options = {}) {
	return {
		displayName,
		testEnvironment: 'node',
		roots,
		testMatch: ['**/*.test.ts'],
		transform,
		...options,
	};
}

/**
 * A project that runs the tests under `root` against a real n8n `n8nVersion`, `minutes` per test at most
 * (test/harness/realN8n.ts reads both).
 */
function realN8nProject(
	displayName,
	root,
	{ n8nVersion, minutes, slowTestThreshold, testPathIgnorePatterns = ['/node_modules/'] },
) {
	return project(displayName, [root], {
		testPathIgnorePatterns,
		globals: { n8nVersion, testTimeoutMs: minutes * 60 * 1000 },
		setupFilesAfterEnv: ['<rootDir>/test/harness/realN8nSetup.ts'],
		slowTestThreshold,
	});
}

const fast = [
	project('unit', ['<rootDir>/test/unit', '<rootDir>/test/sandbox'], {
		setupFilesAfterEnv: ['<rootDir>/test/harness/setupEnv.ts'],
	}),
	project('engine', ['<rootDir>/test/engine'], {
		setupFilesAfterEnv: ['<rootDir>/test/harness/setupEnv.ts'],
	}),
];

const realN8n = [
	realN8nProject('e2e-2x', '<rootDir>/test/e2e', {
		n8nVersion: installer.DEFAULT_VERSION,
		minutes: 10,
		slowTestThreshold: 60,
	}),
	// The packaging tests start no n8n: they run once, with 2.x.
	realN8nProject('e2e-1x', '<rootDir>/test/e2e', {
		n8nVersion: installer.LEGACY_VERSION,
		minutes: 10,
		slowTestThreshold: 60,
		testPathIgnorePatterns: ['/packaging-'],
	}),
	realN8nProject('browser', '<rootDir>/test/browser', {
		n8nVersion: installer.DEFAULT_VERSION,
		minutes: 5,
		slowTestThreshold: 60,
	}),
	realN8nProject('queue', '<rootDir>/test/queue', {
		n8nVersion: process.env.N8N_QUEUE_VERSION || installer.DEFAULT_VERSION,
		minutes: 5,
		slowTestThreshold: 120,
	}),
];

module.exports = {
	reporters: ['default', '<rootDir>/scripts/test-totals.js'],
	testTimeout: 60000,
	projects: process.env.TEST_TARBALL ? [...fast, ...realN8n] : fast,
};
