/** Run through `npm test`, which starts the real Postgres and Temporal these tests use. */
module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  verbose: false,
};
