// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', 'examples/gateway/dist/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Module boundaries: a feature's tables are read and written in its own folder; other features go
    // through what its module exports (a reader, or a function on the caller's transaction).
    files: ['src/*/**/*.ts'],
    ignores: ['src/database/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*/*.entity', '../../*/*.entity'], message: "Another feature's table: use what its module exports." }] },
      ],
    },
  },
  {
    // Persistence knows no feature: the schema is listed in src/orchestration-schema.ts.
    files: ['src/database/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*/**', '!../common/**', '../../*/**', '!../../common/**'], message: 'database/ imports no feature folder.' },
          ],
        },
      ],
    },
  },
  {
    // common/ is the ground floor every folder may use: it imports no other folder of src/ (its specs may use test/ helpers).
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./test/)',
              message: 'common/ imports no other folder of src/: move the code that needs one out of common/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every controller imports its route decorator from api-docs/, so the document knows no feature either.
    files: ['src/api-docs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(?!common/|security/)', message: 'api-docs/ imports only common/ and security/.' }] },
      ],
    },
  },
  {
    // Tests read untyped JSON response bodies.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
