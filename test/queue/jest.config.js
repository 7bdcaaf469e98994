/**
 * Queue-mode end-to-end suite (opt-in: `npm run test:queue`). Needs root on a machine without
 * redis-server/postgresql (installs them with apt-get), and the cached n8n 2.40.7 (installed on first run).
 *
 *   npm run test:queue
 *   QUEUE_TARBALL=path.tgz npm run test:queue    # use this tarball instead of build + pack
 *   QUEUE_KEEP=1 npm run test:queue              # keep the temp run folder too
 *
 * The report and every process's log end up in test-artifacts/queue/.
 *
 * See docs/queue-mode.md.
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	globalSetup: '<rootDir>/test/queue/global-setup.js',
	testTimeout: 5 * 60 * 1000,
	slowTestThreshold: 120,
	verbose: true,
	reporters: ['default', '<rootDir>/scripts/test-totals.js'],
};
