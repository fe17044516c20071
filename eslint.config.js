// ESLint over the TypeScript sources: the recommended rules of ESLint and typescript-eslint,
// without type information (fast enough for every `npm test`). TypeScript itself checks names,
// so `no-undef` is off, as typescript-eslint advises.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'reports/', 'bench/out/', 'test-artifacts/', '**/*.html', '**/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
