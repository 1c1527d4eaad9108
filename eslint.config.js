import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.prof/'] },
  js.configs.recommended,
  { languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Configuration is parsed once, in src/config.ts (STYLE: config parsed once).
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' }],
    },
  },
  {
    // Ids come from one generator with a large random buffer (src/uuid.ts).
    files: ['src/**'],
    ignores: ['src/uuid.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'uuidv7', message: 'Use uuidv7() from src/uuid.ts.' }] }] },
  },
  {
    // The UI blocks run in browsers.
    files: ['ui/src/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The rule engine is pure: no I/O, no HTTP, no database (STYLE: engine/).
    files: ['src/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/db/**', '**/plugins/**', '**/modules/**'], message: 'src/engine must stay pure.' },
            { group: ['fastify', 'kysely', 'better-sqlite3', 'pg', 'ioredis', 'node:fs', 'node:net', 'node:http'], message: 'src/engine must stay pure.' },
          ],
        },
      ],
    },
  },
);
