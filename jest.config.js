// Unit specs beside the code (src, *.spec.ts); e2e suites on real databases (test, *.e2e-spec.ts).
const tsJest = ['ts-jest', {}];

module.exports = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      testEnvironment: 'node',
      testTimeout: 60000,
    },
  ],
};
