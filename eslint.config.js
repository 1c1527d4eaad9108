import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Who may import whom in src/ (docs/architecture.md, "Boundaries"). Imports in src/ are relative
// and the tree is flat, so a rule reads the import as written: between modules
// '../<module>/<file>.js', from a folder of src/ into the modules '../modules/<module>/<file>.js'.
// test/lint/boundaries.test.ts breaks each rule on purpose.

/** What a module offers the other modules, besides its service.ts (never its repository.ts). */
const PUBLIC_FILES = {
  // The outcome schema of an action, which the writers that log one answer with.
  actions: ['schemas'],
  // The write core every writer goes through: LedgerRepository.write and lock are its entry.
  ledger: ['repository', 'write-set', 'locked', 'level-changes', 'parties', 'written', 'award-entries'],
  missions: ['visibility'],
  oauth: ['tokens'],
  program: ['model', 'snapshot', 'validate', 'site-changes', 'event-routing', 'webhook-secret', 'schemas'],
  sites: ['client-registry', 'maintenance', 'client-secrets', 'demo-site'],
  users: ['preferences', 'directory', 'shared-names', 'names', 'schemas'],
};
const PUBLIC = `(?:[a-z-]+/service|${Object.entries(PUBLIC_FILES)
  .map(([module, files]) => `${module}/(?:${files.join('|')})`)
  .join('|')})\\.js$`;

const PLUGIN_IMPORTS = 'A plugin imports only types, of the service or a public file of a module (PUBLIC_FILES in eslint.config.js).';

// Ids come from one generator with a large random buffer (src/uuid.ts).
const UUID = { name: 'uuidv7', message: 'Use uuidv7() from src/uuid.ts.' };
/** The rule for a folder: its patterns, and the uuid one (a later block replaces the rule's options, never merges them). */
const imports = (...patterns) => ['error', { paths: [UUID], patterns }];

export default tseslint.config(
  // clients/typescript/src/schema.d.ts is generated (npm run client:generate) and checked byte for byte
  // against the routes by test/client/schema-drift.test.ts, so it is never linted nor reformatted.
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.prof/', 'clients/typescript/dist/', 'clients/typescript/src/schema.d.ts'] },
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
    files: ['src/**'],
    ignores: ['src/uuid.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': imports() },
  },
  {
    // A module reaches another through its service (or the files PUBLIC_FILES names), never its repository.
    files: ['src/modules/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': imports({
        regex: `^\\.\\./(?!${PUBLIC})[a-z-]+/`,
        message: "A module imports another module's service.ts or a file eslint.config.js names public (PUBLIC_FILES), never its repository.",
      }),
    },
  },
  {
    // Plugins know modules by the types of their services (buildApp hands the services to them).
    files: ['src/plugins/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': imports(
        { regex: `^\\.\\./modules/${PUBLIC}`, allowTypeImports: true, message: PLUGIN_IMPORTS },
        { regex: `^\\.\\./modules/(?!${PUBLIC})`, message: PLUGIN_IMPORTS },
      ),
    },
  },
  {
    // The database layer and the infrastructure know no module and no plugin.
    files: ['src/db/**', 'src/infra/**', 'src/http/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': imports({
        regex: '^(?:\\.\\./)+(?:modules|plugins)/',
        message: 'src/db, src/infra and src/http import no module and no plugin.',
      }),
    },
  },
  {
    // The rule engine is pure: no I/O, no HTTP, no database (STYLE: engine/).
    files: ['src/engine/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': imports(
        { group: ['**/db/**', '**/plugins/**', '**/modules/**', '**/infra/**', '**/http/**'], message: 'src/engine must stay pure.' },
        { group: ['fastify', 'kysely', 'better-sqlite3', 'pg', 'ioredis', 'node:fs', 'node:net', 'node:http'], message: 'src/engine must stay pure.' },
      ),
    },
  },
  {
    // The UI blocks and the client run in browsers.
    files: ['ui/src/**', 'console/src/**', 'clients/typescript/src/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    // examples/environment.ts is the examples' config.ts: programs of their own, configured by their environment.
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts', 'examples/environment.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
