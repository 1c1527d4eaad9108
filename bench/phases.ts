// What one action costs, by phase: a CPU profile of the server (node:inspector's sampling
// profiler, started and stopped by ./questline-server.ts's /bench/profile routes) during a round of
// action logging, each sample put in the phase of the innermost frame of its stack that names one
// (a native call such as JSON.stringify or better-sqlite3's `run` counts for the code that made it).
//
// The phases, by where the code lives:
// - HTTP and auth: Fastify, Node's HTTP server, the request log, token checks and rate limits;
// - input: parsing and checking the body (src/modules/actions/input.ts, the JSON and form parsers);
// - engine: the pure decision (src/engine/);
// - decision and write set: the action path around the engine (src/modules/ other than the
//   phases below): reading the party's cached state, building the rows and the response;
// - SQL: the statements, through Kysely and the driver (src/db/, better-sqlite3, pg);
// - commit: SQLite's COMMIT of a group, PostgreSQL's COMMIT;
// - leaderboards, Redis, outbox and webhooks (the outbox rows and the dispatcher), serialization
//   (the response's JSON);
// - garbage collection, and the VM's own work that V8 attributes to no function ("VM").
export const PHASES = [
  'HTTP and auth',
  'input',
  'engine',
  'decision and write set',
  'SQL',
  'commit',
  'leaderboards',
  'Redis',
  'outbox and webhooks',
  'serialization',
  'garbage collection',
  'VM',
  'other',
] as const;
export type Phase = (typeof PHASES)[number];

/** A V8 CPU profile (the Profiler domain's `Profile`), as much of it as the classification reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  startTime: number;
  endTime: number;
  samples: number[];
  /** µs between a sample and the one before it (the first: since startTime). */
  timeDeltas: number[];
}

/** A COMMIT: the time of every frame it calls counts as commit, whatever those frames are. */
export function isCommit(url: string, name: string): boolean {
  return (
    (url.includes('/src/db/sqlite-dialect.ts') && (name === '#commit' || name === 'commitTransaction')) ||
    (url.includes('/kysely/') && name === 'commitTransaction')
  );
}

const RULES: Array<[Phase, (url: string, name: string) => boolean]> = [
  ['outbox and webhooks', (url, name) => url.includes('/src/modules/webhooks/') || (url.includes('/src/modules/ledger/repository.ts') && name === 'enqueue')],
  ['leaderboards', (url) => url.includes('/src/modules/leaderboards/')],
  ['engine', (url) => url.includes('/src/engine/')],
  ['serialization', (url, name) => url.includes('/fast-json-stringify/') || (url.includes('/fastify/lib/reply.js') && name === 'serialize')],
  [
    'input',
    (url) =>
      url.includes('/src/modules/actions/input.ts') ||
      url.includes('/src/http/json.ts') ||
      url.includes('/src/http/form.ts') ||
      url.includes('/secure-json-parse/') ||
      url.includes('/fastify/lib/contentTypeParser.js'),
  ],
  ['SQL', (url) => url.includes('/src/db/') || url.includes('/kysely/') || /\/pg(-protocol|-pool)?\//.test(url)],
  ['Redis', (url) => url.includes('/ioredis/') || url.includes('/redis-parser/')],
  ['HTTP and auth', (url) => url.includes('/src/modules/oauth/') || url.includes('/src/plugins/') || url.includes('/src/http/') || url.includes('/src/app.ts')],
  ['decision and write set', (url) => url.includes('/src/modules/') || url.includes('/uuidv7/')],
  [
    'HTTP and auth',
    (url) =>
      /\/(fastify|@fastify|find-my-way|avvio|pino|pino-std-serializers|jose|light-my-request|fast-querystring)\//.test(url) || url.startsWith('node:_http'),
  ],
];

/** The phase of one frame, or undefined when the frame names none (the frame calling it decides). */
export function framePhase(url: string, functionName: string): Phase | undefined {
  if (isCommit(url, functionName)) return 'commit';
  // better-sqlite3's own wrappers: the caller says what the statement is for (a COMMIT, or SQL).
  if (url.includes('/better-sqlite3/')) return undefined;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(program)') return 'VM';
    return undefined;
  }
  for (const [phase, matches] of RULES) if (matches(url, functionName)) return phase;
  return undefined;
}

/**
 * The µs of the profile spent in each phase (idle time left out): a sample lasts until the next
 * one, and counts for commit when a COMMIT is on its stack, else for the innermost frame of its
 * stack that names a phase.
 */
export function timeByPhase(profile: CpuProfile): Map<Phase, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const phaseOfNode = new Map<number, Phase | null>();
  const classify = (id: number): Phase | null => {
    const known = phaseOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    let phase: Phase | null = null;
    if (node !== undefined && node.callFrame.functionName !== '(idle)' && node.callFrame.functionName !== '(root)') {
      const own = framePhase(node.callFrame.url, node.callFrame.functionName);
      const up = parent.get(id);
      const above = up === undefined ? null : classify(up);
      phase = above === 'commit' ? 'commit' : (own ?? above ?? 'other');
    }
    phaseOfNode.set(id, phase);
    return phase;
  };
  const times = new Map<Phase, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const duration = i + 1 < profile.timeDeltas.length ? (profile.timeDeltas[i + 1] as number) : 0;
    const phase = classify(profile.samples[i] as number);
    if (phase !== null) times.set(phase, (times.get(phase) ?? 0) + duration);
  }
  return times;
}
