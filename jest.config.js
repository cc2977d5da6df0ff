// Unit specs beside the code (src, *.spec.ts); e2e suites on real databases (test, *.e2e-spec.ts).
const tsJest = ['ts-jest', {}];

module.exports = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  // e2e suites start apps and create MariaDB schemas; jest 29 takes the timeout only at the top level.
  testTimeout: 60000,
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
      // The example gateway imports the package by name, as a real gateway does (tsconfig.json `paths`).
      moduleNameMapper: { '^cta-orchestration-service$': '<rootDir>/src/index.ts' },
      testEnvironment: 'node',
    },
  ],
};
