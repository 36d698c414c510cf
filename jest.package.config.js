/**
 * `npm run test:package`: packs the repository as `npm publish` would and installs the tarball into a
 * fresh cdk8s app. Slow (a build, a pack and an npm install): kept out of `npm test`, run by CI.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/package'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 900000,
};
