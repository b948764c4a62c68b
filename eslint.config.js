import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'packages/*/dist/**', 'data/**', 'node_modules/**', 'build/**', 'coverage/**', '.tmp/**', '**/.next/**', '**/next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-console': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/cli.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // What a caller or a user sees is an AppError of the catalogue (src/error-codes.ts), never a bare Error.
    files: ['src/**/*.ts', 'src/**/*.tsx', 'packages/*/src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/test-support/**', 'packages/*/src/**/*.test.ts', 'packages/*/src/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/^(Error|TypeError|RangeError|SyntaxError)$/]',
          message: 'Raise an error of the catalogue: ERRORS.SOME_CODE(...) from src/error-codes.ts.',
        },
        {
          selector: 'CallExpression[callee.name=/^(Error|TypeError|RangeError|SyntaxError)$/]',
          message: 'Raise an error of the catalogue: ERRORS.SOME_CODE(...) from src/error-codes.ts.',
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
