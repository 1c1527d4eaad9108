// Running `questline` commands in-process in tests: an Output that keeps what a command printed,
// the process output captured around a call, and the error a promise rejects with.
import { expect, vi } from 'vitest';

/** An Output that keeps what a command printed. */
export function capture(json = true) {
  const printed: { result: unknown; human: string }[] = [];
  return { printed, out: { json, print: (result: unknown, human: string) => void printed.push({ result, human }) } };
}

/** Runs `fn` with process.stdout and process.stderr captured. */
export async function captured(fn: () => Promise<unknown>): Promise<{ stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
  try {
    await fn();
  } finally {
    vi.restoreAllMocks();
  }
  return { stdout: stdout.join(''), stderr: stderr.join('') };
}

/** The error `promise` rejects with (the test fails if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}
