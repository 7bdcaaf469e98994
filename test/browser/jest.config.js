/**
 * Browser checks of the editor: Debian's chromium (playwright-core) against a real n8n 2.40.7 with the
 * packed package installed as a community package, talking to the local sandbox.
 *
 *   npm run test:browser                       # ensure chromium, build + pack, run
 *   BROWSER_TARBALL=path.tgz npm run test:browser   # use this tarball instead of build + pack
 *   UPDATE_SCREENSHOTS=1 npm run test:browser  # also copy the passing steps' PNGs to docs/screenshots/
 *   BROWSER_KEEP=1 npm run test:browser        # keep the temp n8n user folder (n8n.log, database)
 *
 * Screenshots of every step: test-artifacts/browser/ (gitignored).
 */
module.exports = {
	reporters: ['default', '<rootDir>/scripts/test-totals.js'],
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/browser'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	globalSetup: '<rootDir>/test/browser/global-setup.js',
	testTimeout: 5 * 60 * 1000,
	slowTestThreshold: 60,
	verbose: true,
};
