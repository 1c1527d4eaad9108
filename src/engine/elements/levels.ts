// SPEC §5 step 8: with levelType points, the level follows lifetime points in the default category.
import type { EngineLevel, LevelChange } from '../types.js';

/** The highest level whose threshold the points reach (levels are ordered by threshold). */
export function levelFor(levels: readonly EngineLevel[], points: number): EngineLevel | null {
  let current: EngineLevel | null = null;
  for (const level of levels) if (level.threshold <= points) current = level;
  return current;
}

export function levelChange(levels: readonly EngineLevel[], before: number, after: number): LevelChange | undefined {
  const from = levelFor(levels, before);
  const to = levelFor(levels, after);
  if (from?.id === to?.id) return undefined;
  return { from, to, direction: after > before ? 'up' : 'down' };
}
