// ESLint flat config: typescript-eslint with type information (so promise rules can see types),
// Prettier owns formatting (eslint-config-prettier turns the stylistic rules off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
/** Where product code may not import from: the tooling, the tests and the benchmarks. */
const PRODUCT_ONLY = [
  { group: ['**/tools/**', '**/test/**', '**/bench/**'], message: 'The product (src/, api/, workflows/, activities/) ships without tools/, test/ and bench/.' },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', '.tools/', 'coverage/', 'test-artifacts/', '**/*.generated.ts', 'sdk/dist/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.mjs', '*.js', 'scripts/*.mjs', 'scripts/lib/*.mjs', 'test/support/*.cjs', 'vite.config.mts'],
          // The plain-Node bootstraps (scripts/*.mjs) and root configs, about a dozen small files,
          // are linted with the default project: more than its default cap of 8.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error: the rule this config exists for.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' },
      ],
      // Rows from knex and bodies from JSON are `any` by nature; the zod schemas type what matters.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // All SQL lives in src/db/*.repository.ts (DESIGN.md §1): no query builder or raw SQL anywhere else.
    files: ['src/**/*.ts', 'api/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name=/^(db|trx|knex)$/][arguments.0.type='Literal']", message: 'SQL belongs in a src/db/*.repository.ts function.' },
        {
          selector: "CallExpression[callee.property.name='raw'][callee.object.name=/^(db|trx|knex)$/]",
          message: 'SQL belongs in a src/db/*.repository.ts function.',
        },
      ],
    },
  },
  {
    // The product ships alone (DESIGN.md §1): nothing under src/, api/, workflows/ or activities/ imports tooling, tests or benchmarks.
    files: ['src/**/*.ts', 'api/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: PRODUCT_ONLY }] },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins there.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code is deterministic: no Node built-ins (do I/O in an activity).' })),
          patterns: PRODUCT_ONLY,
        },
      ],
    },
  },
  {
    // The web app (web/, its own tsconfig): browser globals, and React's rules of hooks.
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // CommonJS by nature: loaded with --require before any TypeScript loader (test/support/network-guard.cjs).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  prettier,
);
