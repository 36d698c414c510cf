/** Tests run from TypeScript sources; `npm test` type-checks everything with tsc first. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The pack-and-install test is slow and needs the npm registry: `npm run test:package` runs it.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/package/'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 120000,
  // A failing test that leaks a socket or child must fail CI, not hang it until CI's own time limit.
  forceExit: true,
};
