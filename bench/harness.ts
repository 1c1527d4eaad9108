// What the benchmarks share: medians, servers in their own processes, autocannon load, and the
// report table printed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = 5;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function opsPerSecond(run: () => Promise<unknown> | unknown, iterations: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await run();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rounds.push(iterations / seconds);
  }
  return median(rounds);
}

export interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

export function startServer(args: string[], env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /Server listening at (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) {
        clearInterval(poll);
        resolve({ child, url: match[1], output: () => output, stop });
      }
      if (child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(output));
      }
    }, 50);
  });
}

/**
 * Questline (./questline-server.ts) on an embedded SQLite file `name`.db in `dir`, with no rate
 * limit of its own and no Redis unless `env` says otherwise.
 */
export function startQuestline(dir: string, name: string, env: Record<string, string> = {}): Promise<Server> {
  return startServer(['bench/questline-server.ts'], {
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    CLIENT_RATE_LIMIT_RPS: '1000000',
    CLIENT_RATE_LIMIT_BURST: '1000000',
    REDIS_URL: '',
    ...env,
  });
}

/** A token for the app client a questline-server.ts prints (or its admin client), and the site's id. */
export async function clientToken(server: Server, role: 'app' | 'admin' = 'app'): Promise<{ token: string; siteId: string }> {
  const site = /CLIENT (\S+) (\S+) (\S+)/.exec(server.output());
  const client = role === 'admin' ? /ADMIN (\S+) (\S+)/.exec(server.output()) : site;
  if (!site?.[3] || !client?.[1] || !client[2]) throw new Error(`no bench ${role} client printed`);
  const response = await fetch(`${server.url}/oauth/token/`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client[1], client_secret: client[2] }),
  });
  const { access_token: token } = (await response.json()) as { access_token: string };
  return { token, siteId: site[3] };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered. */
  requests: number;
  /** CPU time per request, µs, of each group of processes measured (see `cpu` in load()). */
  cpu?: Record<string, number>;
}

/** The CPU seconds (user + system) a process has used so far (Linux /proc; 0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state is field 3, utime 14 and stime 15 (proc(5)), in clock ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Starts measuring the CPU time of groups of processes (a name → their pids, asked again at the
 * end: a process started meanwhile, such as a PostgreSQL backend for a new pool connection,
 * counts whole). `perRequest` divides each group's time by the requests answered, in µs.
 */
function cpuMeter(groups: Record<string, () => number[]>): { perRequest: (requests: number) => Record<string, number> | undefined } {
  const started = Object.entries(groups).map(([name, pids]) => ({ name, pids, at: new Map(pids().map((pid) => [pid, cpuSeconds(pid)])) }));
  return {
    perRequest: (requests) =>
      started.length === 0
        ? undefined
        : Object.fromEntries(
            started.map((group) => [
              group.name,
              (group.pids().reduce((sum, pid) => sum + cpuSeconds(pid) - (group.at.get(pid) ?? 0), 0) / Math.max(requests, 1)) * 1e6,
            ]),
          ),
  };
}

/** Every PostgreSQL process on the machine (where the bench's own cluster is not known). */
export function postgresPids(): number[] {
  return processes()
    .filter((p) => p.comm === 'postgres')
    .map((p) => p.pid);
}

/** A process and its children (PostgreSQL's postmaster and its backends, which it forks). */
export function processTree(root: number): number[] {
  return [
    root,
    ...processes()
      .filter((p) => p.parent === root)
      .map((p) => p.pid),
  ];
}

/** The command line a process shows (proc(5) cmdline): PostgreSQL's processes show what they are there; '' once it is gone. */
export function processTitle(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** The processes running now: pid, command name and parent (proc(5)). */
function processes(): Array<{ pid: number; comm: string; parent: number }> {
  const out: Array<{ pid: number; comm: string; parent: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": the name may hold spaces and parentheses, so cut at the last ')'.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.push({ pid: Number(entry), comm, parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      // Gone.
    }
  }
  return out;
}

/** autocannon against `url`; `request` varies each request (path, method, body). */
export async function load(
  url: string,
  options: {
    connections?: number;
    headers?: Record<string, string>;
    request?: () => { path: string; method?: 'GET' | 'POST'; body?: string };
    /** Every response's latency in ms is added here (for the histogram picture). */
    samples?: number[];
    /** Groups of processes whose CPU time per request is measured: a name → their pids. */
    cpu?: Record<string, () => number[]>;
    /** Exactly this many requests, however long they take (rather than DURATION_SECONDS of them). */
    amount?: number;
  } = {},
): Promise<LoadResult> {
  const headers = options.headers ?? {};
  const vary = options.request;
  const samples = options.samples;
  const settings: autocannon.Options = {
    url,
    // (autocannon wants at least a request per connection.)
    connections: Math.min(options.connections ?? 50, options.amount ?? Infinity),
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: DURATION_SECONDS }),
    headers,
    ...(vary !== undefined
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const next = vary();
                return {
                  ...request,
                  path: next.path,
                  method: next.method ?? 'GET',
                  ...(next.body !== undefined ? { body: next.body, headers: { ...headers, 'content-type': 'application/json' } } : {}),
                };
              },
            },
          ],
        }
      : {}),
  };
  const meter = cpuMeter(options.cpu ?? {});
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(settings, (error: Error | null, done: autocannon.Result) => (error ? reject(error) : resolve(done)));
    if (samples !== undefined) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => samples.push(ms));
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = meter.perRequest(result.requests.total);
  // A round of a given amount ends within its last second: the mean of whole seconds would count that one as a full one.
  const rps = options.amount !== undefined ? result.requests.total / result.duration : result.requests.average;
  return { rps, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, ...(cpu !== undefined ? { cpu } : {}) };
}

/**
 * Runs `measure` while another process spins a busy loop (issue 24: "other work taking one core"),
 * as a neighbour on a shared machine does; the loop ends with it.
 */
export async function withBusyLoop<T>(measure: () => Promise<T>): Promise<T> {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    return await measure();
  } finally {
    if (busy.exitCode === null && busy.signalCode === null) {
      const exited = new Promise((resolve) => busy.once('exit', resolve));
      busy.kill('SIGKILL');
      await exited;
    }
  }
}

/**
 * The same load spread over several nodes at once (`connections` in all, shared evenly): the
 * throughputs add up; the latencies reported are the worst node's.
 */
export async function loadSpread(urls: string[], options: Parameters<typeof load>[1] = {}): Promise<LoadResult> {
  const each = Math.floor((options.connections ?? 50) / urls.length);
  const meter = cpuMeter(options.cpu ?? {});
  const results = await Promise.all(urls.map((url) => load(url, { ...options, connections: each, cpu: {} })));
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const cpu = meter.perRequest(requests);
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    requests,
    ...(cpu !== undefined ? { cpu } : {}),
  };
}

/**
 * Interleaved rounds, so that a noisy neighbour slows every target alike; medians of each. With
 * `warmUp`, one uncounted round first (the JIT, and a collection after a large load).
 */
export async function interleaved<K extends string>(
  rounds: number,
  targets: Record<K, () => Promise<LoadResult>>,
  options: { warmUp?: boolean } = {},
): Promise<Record<K, LoadResult>> {
  const results = {} as Record<K, LoadResult[]>;
  for (const name of Object.keys(targets) as K[]) results[name] = [];
  if (options.warmUp === true) for (const name of Object.keys(targets) as K[]) await targets[name]();
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(targets) as K[]) results[name].push(await targets[name]());
  }
  const out = {} as Record<K, LoadResult>;
  for (const name of Object.keys(targets) as K[]) {
    const cpu = results[name][0]?.cpu;
    out[name] = {
      rps: median(results[name].map((r) => r.rps)),
      p50: median(results[name].map((r) => r.p50)),
      p99: median(results[name].map((r) => r.p99)),
      requests: median(results[name].map((r) => r.requests)),
      ...(cpu !== undefined
        ? { cpu: Object.fromEntries(Object.keys(cpu).map((group) => [group, median(results[name].map((r) => r.cpu?.[group] ?? 0))])) }
        : {}),
    };
  }
  return out;
}

export const describeLoad = (r: LoadResult) => `${Math.round(r.rps).toLocaleString('en')} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms)`;

/** The CPU per request measured, e.g. "server 352 µs, PostgreSQL 410 µs". */
export const describeCpu = (r: LoadResult) =>
  Object.entries(r.cpu ?? {})
    .map(([group, micros]) => `${group} ${Math.round(micros).toLocaleString('en')} µs`)
    .join(', ');

/** The report: sections of rows, printed at the end and written to bench/REPORT.md by a full run. */
export interface Section {
  title: string;
  notes: string[];
  rows: Array<[string, string]>;
}
export const sections: Section[] = [];

/** Starts a section of the report; `notes` are paragraphs printed above its table. */
export function section(title: string, ...notes: string[]): void {
  sections.push({ title, notes, rows: [] });
  process.stdout.write(`\n## ${title}\n`);
}

export function report(name: string, value: string): void {
  if (sections.length === 0) section('Figures');
  (sections.at(-1) as Section).rows.push([name, value]);
  process.stdout.write(`${name}: ${value}\n`);
}

export function sectionsMarkdown(): string {
  return sections
    .filter((s) => s.rows.length > 0)
    .map((s) =>
      [
        `## ${s.title}`,
        '',
        ...s.notes.flatMap((note) => [note, '']),
        '| measurement | result |',
        '|---|---|',
        ...s.rows.map(([name, value]) => `| ${name} | ${value} |`),
      ].join('\n'),
    )
    .join('\n\n');
}

export function printReport(): void {
  process.stdout.write(`\n${sectionsMarkdown()}\n`);
}
