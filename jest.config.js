/** Tests run from TypeScript sources; `npm test` type-checks everything with tsc first. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 120000,
  // A failing test that leaks a socket or child must fail CI, not hang it until CI's own time limit.
  forceExit: true,
};
