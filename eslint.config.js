// ESLint for the whole monorepo: typescript-eslint's recommended rules with type information.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './eslint.boundaries.js';

const TYPE_STRIPPING = [
  { selector: 'TSEnumDeclaration', message: 'Node runs TypeScript by type stripping: use a union of string literals.' },
  { selector: 'TSParameterProperty', message: 'Node runs TypeScript by type stripping: declare the field explicitly.' },
];

// NATS subjects are declared once, in @hc/events/contracts (docs/events.md): a subject written as a
// string elsewhere drifts from the contract unseen. Matches the contexts' subjects and wildcards
// (`checkout.payment.paid.…`, `customers.customer.erased`, `settlement.verdict.reached`, `checkout.*.*.…`),
// not other dotted names (crash points, field paths) nor the plumbing's own (`deadletter.<consumer>`).
const SUBJECT = String.raw`/^(checkout|customers|settlement|accounts)\.(payment|session|customer|verdict|account|api_key|\*|>)/`;
const SUBJECT_MESSAGE = 'NATS subjects come from @hc/events/contracts, never a string literal.';
const SUBJECT_LITERALS = [
  { selector: `Literal[value=${SUBJECT}]`, message: SUBJECT_MESSAGE },
  { selector: `TemplateElement[value.raw=${SUBJECT}]`, message: SUBJECT_MESSAGE },
];

// Unix seconds are computed once (@hc/conversions, rounded down); the published SDK, which may not
// depend on workspace packages, keeps its own.
const UNIX_SECONDS_MESSAGE = 'Unix seconds come from @hc/conversions (unixSeconds, unixSecondsBig), never getTime() / 1000.';
const UNIX_SECONDS_ARITHMETIC = [
  { selector: "BinaryExpression[operator='/'][right.value=1000][left.callee.property.name='getTime']", message: UNIX_SECONDS_MESSAGE },
];

/** Where the function-length rule applies: every package's, service's and tool's src/. */
const FUNCTION_LENGTH_FILES = ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts', 'tools/*/src/**/*.ts'];
const MAX_FUNCTION_LINES = 100;

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/gen/**',
      // Built packages (packages/sdk's dist/, made by its build for pnpm pack).
      '**/dist/**',
      '**/generated/**',
      '.tools/**',
      '.turbo/**',
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
      'no-restricted-syntax': ['error', ...TYPE_STRIPPING, ...SUBJECT_LITERALS, ...UNIX_SECONDS_ARITHMETIC],
    },
  },
  {
    files: ['packages/conversions/src/**/*.ts', 'packages/sdk/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TYPE_STRIPPING, ...SUBJECT_LITERALS] },
  },
  {
    // The one place that writes NATS subjects, and the test of the subject naming convention itself.
    files: ['packages/events/src/contracts/**/*.ts', 'packages/events/test/sql.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TYPE_STRIPPING] },
  },
  {
    // No function in src/ over 100 lines (issue 48): a function that long is several steps that want
    // names. Counted as ESLint counts, comments and blank lines included. Tests are exempt: a describe
    // block is a list of cases, not a procedure.
    files: FUNCTION_LENGTH_FILES,
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES }] },
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
