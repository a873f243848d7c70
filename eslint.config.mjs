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
      // As in a new Nest project: `any` is allowed, and the unsafe uses of it are pointed out, not refused.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'warn',
      '@typescript-eslint/no-unsafe-argument': 'warn',
      '@typescript-eslint/no-unsafe-assignment': 'warn',
      '@typescript-eslint/no-unsafe-member-access': 'warn',
      '@typescript-eslint/no-unsafe-call': 'warn',
      '@typescript-eslint/no-unsafe-return': 'warn',
      '@typescript-eslint/no-unsafe-enum-comparison': 'warn',
      '@typescript-eslint/no-unsafe-function-type': 'warn',
      // Auto-fixable: `npm run format` removes them.
      '@typescript-eslint/no-unnecessary-type-assertion': 'warn',
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
      // A thrown non-Error carries a result up to the caller that catches it by class (audit-call.hook.ts).
      '@typescript-eslint/only-throw-error': 'warn',
      // Found in code written before the linter; warnings until they are fixed, then errors again.
      '@typescript-eslint/require-await': 'warn',
      '@typescript-eslint/prefer-promise-reject-errors': 'warn',
      '@typescript-eslint/unbound-method': 'warn',
      '@typescript-eslint/no-base-to-string': 'warn',
      '@typescript-eslint/restrict-template-expressions': 'warn',
      'prefer-const': 'warn',
    },
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
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Scripts and configuration files are plain JavaScript outside the TypeScript project.
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
