/**
 * `npm run test:docs`: the API explorer and the `terraform login` sign-in page in a real headless
 * Chromium (Debian's `chromium` package). Not part of `npm test`; skips with a message when no
 * Chromium is installed.
 */
const { resolve } = require('node:path');

module.exports = {
  rootDir: resolve(__dirname, '../..'),
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  maxWorkers: 1,
  testTimeout: 120000,
};
