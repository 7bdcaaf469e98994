/**
 * End-to-end tests against a real n8n (installed into the cache by scripts/n8n/install.js) with the
 * packed package installed like a community package, plus packaging checks.
 *
 *   npm run e2e                               # n8n 2.40.7 on Node 24
 *   N8N_E2E_VERSION=1.123.81 npm run e2e      # the last n8n 1.x on Node 20
 *   E2E_TARBALL=path.tgz npm run e2e          # use this tarball instead of build + pack
 *   E2E_KEEP=1 npm run e2e                    # keep the temp n8n user folders (logs, database)
 *
 * Global setup builds (npm run build), packs (npm pack) and ensures the n8n version is installed.
 */
module.exports = {
	reporters: ['default', '<rootDir>/scripts/test-totals.js'],
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	testTimeout: 10 * 60 * 1000,
	slowTestThreshold: 60,
	verbose: true,
};
