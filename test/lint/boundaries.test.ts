// The import boundaries of eslint.config.js (docs/architecture.md, "Boundaries"): each is broken on
// purpose by a file at a path of the tree (linted as text, never written), and an import it allows
// passes.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundary messages ESLint reports for `code` at `path` (relative to the repository). */
async function boundaryMessages(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: join(root, path) });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe('import boundaries', () => {
  it.each([
    [
      'the engine imports the database',
      'src/engine/elements/streaks.ts',
      "import { openDatabase } from '../../db/index.js';\nvoid openDatabase;",
      /engine must stay pure/,
    ],
    ['the engine imports a driver', 'src/engine/streaks.ts', "import { Kysely } from 'kysely';\nvoid Kysely;", /engine must stay pure/],
    [
      'the engine imports a module',
      'src/engine/streaks.ts',
      "import type { ProgramDocument } from '../modules/program/model.js';\nexport type P = ProgramDocument;",
      /engine must stay pure/,
    ],
    [
      "a module imports another module's repository",
      'src/modules/points/streaks.ts',
      "import { SitesRepository } from '../sites/repository.js';\nvoid SitesRepository;",
      /never its repository/,
    ],
    [
      "a module imports a type of another module's repository",
      'src/modules/webhooks/streaks.ts',
      "import type { ProgramRow } from '../program/repository.js';\nexport type R = ProgramRow;",
      /never its repository/,
    ],
    [
      "a module imports another module's route file",
      'src/modules/awards/streaks.ts',
      "import { actionRoutes } from '../actions/routes.js';\nvoid actionRoutes;",
      /never its repository/,
    ],
    [
      'a plugin imports a module repository',
      'src/plugins/streaks.ts',
      "import type { SitesRepository } from '../modules/sites/repository.js';\nexport type R = SitesRepository;",
      /imports only types/,
    ],
    [
      "a plugin imports a module's service as a value",
      'src/plugins/streaks.ts',
      "import { ProgramService } from '../modules/program/service.js';\nvoid ProgramService;",
      /imports only types/,
    ],
    [
      'db/ imports a module',
      'src/db/streaks.ts',
      "import type { ProgramRow } from '../modules/program/repository.js';\nexport type R = ProgramRow;",
      /import no module/,
    ],
    [
      'a migration imports a module',
      'src/db/migrations/0099_streaks.ts',
      "import { searchName } from '../../modules/users/preferences.js';\nvoid searchName;",
      /import no module/,
    ],
    ['infrastructure imports a plugin', 'src/infra/streaks.ts', "import { authOf } from '../plugins/auth.js';\nvoid authOf;", /import no module/],
    ['a module imports uuidv7 itself', 'src/modules/points/streaks.ts', "import { uuidv7 } from 'uuidv7';\nvoid uuidv7;", /src\/uuid\.ts/],
  ])('refuses: %s', async (_case, path, code, message) => {
    const messages = await boundaryMessages(path, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each([
    [
      "a module imports another module's service",
      'src/modules/points/streaks.ts',
      "import type { ProgramService } from '../program/service.js';\nexport type S = ProgramService;",
    ],
    [
      "a module imports a module's public file",
      'src/modules/points/streaks.ts',
      "import { lifetimeDelta } from '../ledger/write-set.js';\nvoid lifetimeDelta;",
    ],
    [
      'a module imports the ledger (its repository is its entry)',
      'src/modules/points/streaks.ts',
      "import type { LedgerRepository } from '../ledger/repository.js';\nexport type L = LedgerRepository;",
    ],
    ['a module imports its own repository', 'src/modules/points/streaks.ts', "import { SitesRepository } from './repository.js';\nvoid SitesRepository;"],
    ['a module imports the database layer', 'src/modules/points/streaks.ts', "import { precompiled } from '../../db/precompiled.js';\nvoid precompiled;"],
    [
      "a plugin imports a module service's type",
      'src/plugins/streaks.ts',
      "import type { ProgramService } from '../modules/program/service.js';\nexport type S = ProgramService;",
    ],
    [
      'the app (which builds the services) imports repositories',
      'src/app.ts',
      "import { SitesRepository } from './modules/sites/repository.js';\nvoid SitesRepository;",
    ],
    ['the engine imports its own files', 'src/engine/streaks.ts', "import { levelFor } from './elements/levels.js';\nvoid levelFor;"],
  ])('allows: %s', async (_case, path, code) => {
    expect(await boundaryMessages(path, code)).toEqual([]);
  });
});
