// node --import tsx bench/phase-top.ts profile.cpuprofile [phase] [n]: the functions with the most
// self time in a profile's phase (./phases.ts), to see what a phase of the report is made of.
import { readFileSync } from 'node:fs';
import { framePhase, isCommit, type CpuProfile } from './phases.js';

const [file, wanted, limit] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file as string, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const phaseOf = (id: number): string => {
  let phase: string | undefined;
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = (byId.get(at) as CpuProfile['nodes'][number]).callFrame;
    if (isCommit(frame.url, frame.functionName)) return 'commit';
    phase ??= framePhase(frame.url, frame.functionName);
  }
  return phase ?? 'other';
};
const self = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i] as number;
  const frame = (byId.get(id) as CpuProfile['nodes'][number]).callFrame;
  if (frame.functionName === '(idle)' || (wanted !== undefined && phaseOf(id) !== wanted)) continue;
  const duration = profile.timeDeltas[i + 1] ?? 0;
  total += duration;
  // The frame and its caller, which says more than a native function's name alone.
  const up = byId.get(parent.get(id) ?? -1)?.callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')} ← ${up?.functionName || '(anonymous)'} ${up?.url.split('/').at(-1) ?? ''}`;
  self.set(key, (self.get(key) ?? 0) + duration);
}
for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(limit ?? 30))) {
  process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${key}\n`);
}
