// ESLint for the whole monorepo: typescript-eslint's recommended rules with type information.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint.boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/gen/**',
      '**/generated/**',
      '.tools/**',
      '.turbo/**',
      'deploy/docker/**',
      'scripts/tests/boundaries-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Node runs TypeScript by type stripping: use a union of string literals.' },
        { selector: 'TSParameterProperty', message: 'Node runs TypeScript by type stripping: declare the field explicitly.' },
      ],
    },
  },
  ...layerRules(import.meta.dirname),
  {
    files: ['**/*.js'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', require: 'readonly' } },
  },
  {
    // Scripts the hosted pages and the dashboard send to browsers.
    files: ['services/pages/public/**/*.js', 'services/dashboard/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', DOMParser: 'readonly' },
    },
  },
);
