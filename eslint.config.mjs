// The layers of DESIGN.md "Layout", enforced: `npm run lint` (also the first step of `npm test`).
//   core     — no vscode, cli or webview (hosts pass what core needs through constructors)
//   cli      — no vscode
//   webview  — no node built-ins, no vscode (it runs in the browser; core contracts by `import type`)
//   nothing under src imports test; no import cycles anywhere in src.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [...builtinModules.filter((name) => !name.startsWith('_')), 'node:*'];
const NO_TEST = { group: ['**/test/**'], message: 'src never imports test code.' };
const NO_VSCODE_PATHS = { group: ['**/vscode/**'], message: 'Only the editor host (src/vscode) may use editor code.' };
const NO_VSCODE = { name: 'vscode', message: 'Only the editor host (src/vscode) may import vscode.' };

// One import-suffix convention: relative imports name the module without an extension (esbuild and
// tsc's Bundler resolution find the .ts file).
const NO_SUFFIX = { regex: '^\\.{1,2}/.*\\.js$', message: 'Relative imports have no .js suffix (one convention; esbuild resolves the .ts file).' };

/** One no-restricted-imports rule per layer (a later config for the same files replaces the rule, so each layer lists all of its own). */
const restrict = (paths, patterns) => ['error', { paths, patterns: [...patterns, NO_SUFFIX] }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.e2e/**', 'media/**', 'test/**', '*.mjs'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'tsconfig.webview.json'], noWarnOnMultipleProjects: true })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Layers and cycles: the point of this file.
      'no-restricted-imports': restrict([], [NO_TEST]),
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A line length for code; long strings, templates, patterns and URLs may run on (breaking them hides what they say).
      'max-len': ['error', { code: 180, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
      // One idiom for type-only imports.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // The code base's own conventions, which the recommended sets would otherwise fight.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [NO_VSCODE],
        [NO_TEST, NO_VSCODE_PATHS, { group: ['**/cli/**'], message: 'core is below the CLI.' }, { group: ['**/webview/**'], message: 'core is below the webview.' }],
      ),
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': restrict([NO_VSCODE], [NO_TEST, NO_VSCODE_PATHS]) },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [NO_VSCODE],
        [NO_TEST, NO_VSCODE_PATHS, { group: NODE_BUILTINS, message: 'The webview runs in the browser: no node built-ins.' }],
      ),
    },
  },
);
