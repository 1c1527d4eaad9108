import { describe, expect, it } from 'vitest';
import { framePhase, timeByPhase, type CpuProfile } from '../../bench/phases.js';

const src = (path: string) => `file:///work/questline/src/${path}`;
const lib = (path: string) => `file:///work/questline/node_modules/${path}`;

describe('framePhase', () => {
  it.each([
    [src('db/sqlite-dialect.ts'), '#commit', 'commit'],
    [src('db/sqlite-dialect.ts'), 'executeDirect', 'SQL'],
    [lib('kysely/dist/esm/dialect/postgres/postgres-driver.js'), 'commitTransaction', 'commit'],
    [lib('better-sqlite3/lib/methods/wrappers.js'), 'exec', undefined],
    [lib('pg-protocol/dist/parser.js'), 'parse', 'SQL'],
    [src('db/precompiled.ts'), '', 'SQL'],
    [src('engine/evaluate.ts'), 'evaluate', 'engine'],
    [src('modules/actions/input.ts'), 'parseActionInput', 'input'],
    [lib('secure-json-parse/index.js'), '_parse', 'input'],
    [src('modules/actions/service.ts'), 'record', 'decision and write set'],
    [src('modules/ledger/repository.ts'), 'post', 'decision and write set'],
    [src('modules/ledger/repository.ts'), 'enqueue', 'outbox and webhooks'],
    [src('modules/webhooks/dispatcher.ts'), 'tick', 'outbox and webhooks'],
    [src('modules/leaderboards/service.ts'), 'record', 'leaderboards'],
    [lib('ioredis/built/Redis.js'), 'sendCommand', 'Redis'],
    [src('modules/oauth/tokens.ts'), 'verify', 'HTTP and auth'],
    [src('plugins/auth.ts'), 'authenticate', 'HTTP and auth'],
    [lib('fastify/lib/reply.js'), 'serialize', 'serialization'],
    [lib('fastify/lib/reply.js'), 'onSendEnd', 'HTTP and auth'],
    [lib('fast-json-stringify/index.js'), 'build', 'serialization'],
    ['node:_http_server', 'parserOnIncoming', 'HTTP and auth'],
    [lib('uuidv7/dist/index.js'), 'uuidv7', 'decision and write set'],
    ['', '(garbage collector)', 'garbage collection'],
    ['', '(program)', 'VM'],
    ['', 'stringify', undefined],
    ['node:internal/process/task_queues', 'processTicksAndRejections', undefined],
  ])('%s %s is %s', (url, name, phase) => {
    expect(framePhase(url, name)).toBe(phase);
  });
});

describe('timeByPhase', () => {
  // root → http → service → JSON.stringify (native); root → http → engine; root → idle; root → GC;
  // root → a Node internal; root → #commit → better-sqlite3's exec → native exec.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 5, 6, 7, 9] },
      { id: 2, callFrame: { functionName: 'parserOnIncoming', url: 'node:_http_server' }, children: [3, 8] },
      { id: 3, callFrame: { functionName: 'record', url: src('modules/actions/service.ts') }, children: [4] },
      { id: 4, callFrame: { functionName: 'stringify', url: '' } },
      { id: 5, callFrame: { functionName: '(idle)', url: '' } },
      { id: 6, callFrame: { functionName: '(garbage collector)', url: '' } },
      { id: 7, callFrame: { functionName: 'processTicksAndRejections', url: 'node:internal/process/task_queues' } },
      { id: 8, callFrame: { functionName: 'evaluate', url: src('engine/evaluate.ts') } },
      { id: 9, callFrame: { functionName: '#commit', url: src('db/sqlite-dialect.ts') }, children: [10] },
      { id: 10, callFrame: { functionName: 'exec', url: lib('better-sqlite3/lib/methods/wrappers.js') }, children: [11] },
      { id: 11, callFrame: { functionName: 'exec', url: '' } },
    ],
    startTime: 0,
    endTime: 100,
    // Each sample lasts until the next: the deltas after samples 4, 4, 5, 6, 7, 8, 2, 11 are 10, 20, 30, 5, 7, 3, 1, 40.
    samples: [4, 4, 5, 6, 7, 8, 2, 11, 2],
    timeDeltas: [0, 10, 20, 30, 5, 7, 3, 1, 40],
  };

  it('gives each sample to the innermost frame that names a phase (or to a COMMIT on its stack), and leaves idle time out', () => {
    expect(Object.fromEntries(timeByPhase(profile))).toEqual({
      'decision and write set': 30,
      'garbage collection': 5,
      other: 7,
      engine: 3,
      'HTTP and auth': 1,
      commit: 40,
    });
  });
});
