/**
 * Unit specs live next to the code; service specs under test/ drive the real services on a real
 * database without HTTP; e2e suites under test/ drive the real AppModule over HTTP.
 */
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
};

module.exports = {
  maxWorkers: process.env.JEST_WORKERS || 2,
  // Applies to every project: e2e suites boot the app and may spawn the CLI.
  testTimeout: 60000,
  // Each e2e suite leaves some tens of MB behind in its worker (its app's modules, the compiled
  // suite); over a whole run a worker's heap grew past 3.5 GB, where garbage collection takes most
  // of the time and hooks time out. A worker past this size after a suite is replaced.
  workerIdleMemoryLimit: '1GB',
  // MySQL/MariaDB runs: one migrated schema per run, copied into each suite's database.
  globalSetup: '<rootDir>/test/helpers/mysql-template.setup.js',
  globalTeardown: '<rootDir>/test/helpers/mysql-template.teardown.js',
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'service',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/test/**/*.service-spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['ts', 'js', 'json'],
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
    },
  ],
};
