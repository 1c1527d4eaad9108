import { describe, expect, it } from 'vitest';
import { forThisRun } from '../../bench/postgres.js';

describe("forThisRun: the bench's cluster processes that are this run's cost", () => {
  const ours = new Set(['ql_proc_ours', 'ql_proc_floor']);
  it.each([
    ['postgres: postgres ql_proc_ours 127.0.0.1(42428) idle', true],
    ['postgres: postgres ql_proc_floor 127.0.0.1(50000) INSERT', true],
    ['postgres: postgres ql_proc_other 127.0.0.1(42428) SELECT', false],
    ['postgres: postgres ql_proc_other [local] idle', false],
    ['postgres: autovacuum worker ql_proc_ours', true],
    ['postgres: autovacuum worker ql_proc_other', false],
    // The cluster's own processes serve every database: counted.
    ['/usr/lib/postgresql/15/bin/postgres -D /tmp/questline-bench-services/pg -p 55442', true],
    ['postgres: checkpointer', true],
    ['postgres: walwriter', true],
    ['postgres: logical replication launcher', true],
  ])('%s: %s', (title, counted) => {
    expect(forThisRun(title, ours)).toBe(counted);
  });
});
