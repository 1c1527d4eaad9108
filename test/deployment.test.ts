// The container deployment is safe by default: /demo hands every visitor a 24-hour user-level token
// of the demo site, so a container, which listens on every interface, must not serve it unless told
// to. Checked on the configuration the Dockerfile's environment and docker-compose.yml's give.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The variables the runtime stage (the last FROM) of a Dockerfile sets with ENV (`ENV A=1 B=2` or `ENV A 1`). */
function runtimeEnv(dockerfile: string): Record<string, string> {
  const stages = dockerfile.replace(/\\\n/g, ' ').split(/^FROM\s.*$/m);
  const env: Record<string, string> = {};
  for (const [, rest] of (stages.at(-1) ?? '').matchAll(/^ENV\s+(.+)$/gm)) {
    const text = (rest ?? '').trim();
    const pairs = text.includes('=') ? [...text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)].map((m) => [m[1], m[2]]) : [text.split(/\s+(.*)/)];
    for (const [name, value] of pairs) if (name !== undefined) env[name] = (value ?? '').replace(/^"(.*)"$/, '$1');
  }
  return env;
}

describe('the container deployment', () => {
  it('the Docker image listens on every interface and does not serve the demo', () => {
    const env = runtimeEnv(read('Dockerfile'));
    expect(env).toMatchObject({ HOST: '0.0.0.0', DEMO_SITE: 'false' });
    expect(loadConfig(env)).toMatchObject({ host: '0.0.0.0', demoSite: false });
  });

  it('docker-compose.yml turns the demo off for every Questline service', () => {
    const compose = read('docker-compose.yml');
    // The shared environment of the api and worker services (the x-questline anchor).
    expect(compose).toMatch(/^ {2}environment: &questline-env\n(?: {4}.*\n)*? {4}DEMO_SITE: "false"$/m);
  });

  it('reads ENV lines the way the check above expects (guards the guard)', () => {
    expect(runtimeEnv('FROM a AS build\nENV DEMO_SITE=true\nFROM b\nENV NODE_ENV=production HOST=0.0.0.0 \\\n    X="a b"\nENV Y 2\n')).toEqual({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      X: 'a b',
      Y: '2',
    });
  });
});
