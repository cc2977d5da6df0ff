// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** src/'s folders, floor by floor from the ground up (docs/architecture.md draws them). */
const LAYERS = [
  ['common'],
  ['database', 'security', 'metrics'],
  ['api-docs', 'rule'],
  ['cta-lifecycle', 'scheduling', 'catalogue'],
  ['audit'],
  ['events', 'cohorts', 'exposure-policy', 'nudge-preview', 'behaviour-tags'],
  ['ctas'],
  ['serving'],
  ['approvals', 'insights'],
  ['cta-status', 'sdk', 'experiments'],
  ['explain', 'simulate', 'app-users', 'operations'],
  ['http'],
  ['operator-view'],
  ['config'],
];

/** Narrower than their floor: persistence knows no feature; the API document knows no feature either. */
const ALSO_BARRED = { 'api-docs': ['database', 'metrics'] };

/** The standalone app's configuration is read by its HTTP and security set-up: as types only. */
const TYPES_FROM_ABOVE = { http: ['config'], security: ['config'] };

const ANOTHER_FEATURES_TABLE = {
  group: ['../*/*.entity', '../../*/*.entity'],
  message: "Another feature's table: use what its module exports.",
};

const below = (level) => LAYERS.slice(0, level).flat();
const folderRegex = (folders) => `^(?:\\.\\./)+(?:${folders.join('|')})(?:/|$)`;

function layerPatterns(folder, level) {
  const typesOnly = TYPES_FROM_ABOVE[folder] ?? [];
  const barred = LAYERS.flat().filter(
    (other) => other !== folder && !typesOnly.includes(other) && (!below(level).includes(other) || ALSO_BARRED[folder]?.includes(other)),
  );
  return [
    ...(folder === 'database' ? [] : [ANOTHER_FEATURES_TABLE]),
    {
      regex: folderRegex(barred),
      message: `${folder}/ imports only the floors below it (${below(level).join(', ') || 'none'}): see the layers of docs/architecture.md.`,
    },
    ...(typesOnly.length > 0
      ? [{ regex: folderRegex(typesOnly), allowTypeImports: true, message: `${folder}/ imports only types from ${typesOnly.join(', ')}.` }]
      : []),
  ];
}

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
    rules: { 'no-restricted-imports': ['error', { patterns: [ANOTHER_FEATURES_TABLE] }] },
  },
  // The layer order (docs/architecture.md): a folder imports only folders of the floors below it.
  ...LAYERS.flatMap((floor, level) =>
    floor.map((folder) => ({
      files: [`src/${folder}/**/*.ts`],
      // A spec may build its inputs with any folder's helpers; the code it checks may not.
      ignores: ['src/**/*.spec.ts'],
      rules: {
        'no-restricted-imports': 'off',
        '@typescript-eslint/no-restricted-imports': ['error', { patterns: layerPatterns(folder, level) }],
      },
    })),
  ),
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
