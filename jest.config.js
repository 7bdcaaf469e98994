/** Unit and engine tests. The engine tests load the built package from dist/ (run `npm run build` first). */
module.exports = {
	reporters: ['default', '<rootDir>/scripts/test-totals.js'],
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/browser/', '/test/queue/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/harness/setupEnv.ts'],
	testTimeout: 60000,
};
