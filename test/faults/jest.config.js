/**
 * `npm run test:faults`: stops and starts the machine's real MariaDB, so it never runs as part
 * of `npm test`. The global teardown starts MariaDB again whatever the outcome.
 */
const { resolve } = require('node:path');

module.exports = {
  rootDir: resolve(__dirname, '../..'),
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  globalTeardown: '<rootDir>/test/faults/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 120000,
};
