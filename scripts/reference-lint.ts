// The lint of the API reference: the OpenAPI document GET /docs/json serves, built in process
// (scripts/client-schema.ts), checked with Redocly against the committed rule set (redocly.yaml,
// exceptions with their reasons in .redocly.lint-ignore.yaml).
//
//   npm run reference:lint    prints each problem; exits 1 when there is one
//
// test/docs/openapi-lint.test.ts runs the same lint in CI and fails on any problem.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { PACKAGE_ROOT } from '../src/package.js';
import { openApiDocument } from './client-schema.js';

/** One problem the lint found: the rule, where, and what. */
export interface ReferenceProblem {
  rule: string;
  severity: string;
  pointer: string;
  message: string;
}

/** The problems of the current routes' document (none ignored by .redocly.lint-ignore.yaml). */
export async function lintReference(document?: object): Promise<ReferenceProblem[]> {
  const config = await loadConfig({ configPath: join(PACKAGE_ROOT, 'redocly.yaml') });
  const problems = await lintFromString({
    source: JSON.stringify(document ?? (await openApiDocument())),
    // The name .redocly.lint-ignore.yaml gives the document.
    absoluteRef: join(PACKAGE_ROOT, 'openapi.json'),
    config,
  });
  return problems
    .filter((problem) => problem.ignored !== true)
    .map((problem) => ({
      rule: problem.ruleId,
      severity: problem.severity,
      pointer: problem.location[0]?.pointer ?? '#',
      message: problem.message,
    }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = await lintReference();
  for (const problem of problems) console.log(`${problem.severity} ${problem.rule} ${problem.pointer}\n  ${problem.message}`);
  console.log(problems.length === 0 ? 'The API reference passes its lint.' : `${problems.length} problems`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
