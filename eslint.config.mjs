// @ts-check
// The Nest defaults (typescript-eslint's type-checked recommended rules), with Prettier owning the
// layout: eslint-config-prettier turns off the rules it would fight, and `prettier --check` runs
// beside ESLint in `npm run lint`.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/',
      '**/.test-dist*/',
      '.bench-dist/',
      '**/.cli-dist/',
      'apps/billing/src/generated/',
      'coverage/',
      '**/conformance/node_modules/',
      '**/conformance/results/',
      'bench/results/',
      '**/.data/',
      '.mcp-package/',
      '.ci/toolchain/',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['apps/billing/prisma.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // As in a new Nest project: `any` is allowed.
      '@typescript-eslint/no-explicit-any': 'off',
      // Off on purpose: the `any` this codebase handles is mostly Nest's, Prisma's and reflect-metadata's own (CallHandler,
      // HTTP adapters, query extensions, Reflect.getMetadata in the decorator discovery), so every use of it would be flagged.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off: Nest's HttpStatus and RouteParamtypes are compared with the plain numbers Nest itself hands over (statuses, param metadata).
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // Off: `Function` is how Nest and class-transformer type the handlers and constructors read from decorator metadata.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Off: in-memory stores and buses implement Promise-returning extension points without anything to await.
      '@typescript-eslint/require-await': 'off',
      // Off: String(value) shows values of unknown shape on purpose (admin pages, error messages built from foreign errors).
      '@typescript-eslint/no-base-to-string': 'off',
      // A leading underscore marks a value left out on purpose (`const { secret: _secret, ...rest } = …`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Sanitizers match control characters on purpose (log lines, file names, audit text).
      'no-control-regex': 'off',
      // A thrown FailedResult carries a tool's error result up to the transaction that rolls back on it (not an Error on purpose).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'file', name: 'FailedResult', path: 'src/audit/run-audited.ts' }] },
      ],
    },
  },
  {
    files: ['packages/nest-mcp-prisma/src/audit/mcp-audit-log.ts'],
    // recordBatched() rejects with the database's error narrowed from `unknown` (`reject(error as Error)` would do).
    rules: { '@typescript-eslint/prefer-promise-reject-errors': 'off' },
  },
  {
    files: ['packages/nest-mcp-prisma/src/database/mcp-database.ts'],
    // The pool's release() is kept to be called later without `this` (pg binds it per checkout).
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // node:test's describe() and it() return promises the runner awaits; response bodies are `any` JSON.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts', 'packages/nest-mcp/src/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Messages interpolate URLSearchParams, arrays and caught values on purpose.
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  {
    // Scripts and configuration files are plain JavaScript outside the TypeScript project.
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
