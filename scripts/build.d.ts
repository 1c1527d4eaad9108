// Types of scripts/build.js (plain JavaScript, so it runs without the dev dependencies), for its tests.
export type Target = 'server' | 'ui';
export const ROOT: string;
export const TARGETS: Record<Target, { inputs: readonly string[]; outputs: readonly string[] }>;
export const STAMP: string;
/** The targets of `root` that must be built again, each with why; empty when the build is up to date. */
export function staleTargets(root?: string): Array<{ target: Target; reason: string }>;
/** The dev dependencies of the build that are not installed for `root`. */
export function missingToolchain(root?: string): string[];
/** Builds the targets of `root` (all of them by default); throws when a step fails. */
export function build(root?: string, targets?: readonly Target[]): void;
