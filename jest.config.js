/**
 * Every test suite of the project, one Jest project each (`--selectProjects <name>`); CONTRIBUTING.md "Test layout"
 * says what each proves, needs and takes. `npx jest` runs unit and engine (build first). The others test the packed
 * package and exist only when TEST_TARBALL names it: `node scripts/test.js <suite> [-- <file or Jest args>]` builds and
 * packs once, installs what they need and runs them in band, one n8n at a time. The n8n versions are
 * test/harness/n8n/install.js's DEFAULT_VERSION (2.x) and LEGACY_VERSION (1.x), named only there.
 */
const installer = require('./test/harness/n8n/install');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };

/** The projects that need the packed package, with the folder of their files. */
const PACKED = {
	packaging: 'test/packaging',
	'e2e-2x': 'test/e2e',
	'e2e-1x': 'test/e2e',
	browser: 'test/browser',
	queue: 'test/queue',
};

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
 * A project that runs the tests of `PACKED[displayName]` against a real n8n `n8nVersion`, `minutes` per test
 * at most (test/harness/realN8n.ts reads both); with `shared`, one n8n for all its files (sharedN8n.ts).
 */
function realN8nProject(displayName, { n8nVersion, minutes, shared = true }) {
	return project(displayName, [`<rootDir>/${PACKED[displayName]}`], {
		globals: { n8nVersion, testTimeoutMs: minutes * 60 * 1000 },
		setupFilesAfterEnv: ['<rootDir>/test/harness/realN8nSetup.ts'],
		...(shared
			? {
					globalSetup: '<rootDir>/test/harness/n8nGlobalSetup.ts',
					globalTeardown: '<rootDir>/test/harness/n8nGlobalTeardown.ts',
				}
			: {}),
		slowTestThreshold: 30,
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

const packed = [
	project('packaging', [`<rootDir>/${PACKED.packaging}`]),
	realN8nProject('e2e-2x', { n8nVersion: installer.DEFAULT_VERSION, minutes: 10 }),
	realN8nProject('e2e-1x', { n8nVersion: installer.LEGACY_VERSION, minutes: 10 }),
	realN8nProject('browser', { n8nVersion: installer.DEFAULT_VERSION, minutes: 5 }),
	realN8nProject('queue', {
		n8nVersion: process.env.N8N_QUEUE_VERSION || installer.DEFAULT_VERSION,
		minutes: 5,
		shared: false,
	}),
];

/**
 * Without TEST_TARBALL, a file of those projects named on the command line (`npx jest test/e2e/n8n.test.ts`)
 * would find no tests: say how to run it instead, and stop.
 */
function refuseWithoutTarball() {
	for (const file of process.argv.slice(2)) {
		const names = Object.keys(PACKED).filter((name) => file.includes(PACKED[name]));
		if (names.length === 0) continue;
		require('node:fs').writeSync(
			2,
			`${file} tests the packed package (Jest project ${names.join(' or ')}). Run it with\n` +
				names.map((name) => `  node scripts/test.js ${name} -- ${file}\n`).join('') +
				'which builds and packs first, then installs what the suite needs (CONTRIBUTING.md "Test layout").\n',
		);
		process.exit(1);
	}
}

if (!process.env.TEST_TARBALL) refuseWithoutTarball();

module.exports = {
	reporters: ['default', '<rootDir>/test/harness/testTotals.js'],
	testTimeout: 60000,
	projects: process.env.TEST_TARBALL ? [...fast, ...packed] : fast,
};
