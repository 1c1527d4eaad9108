// redactUrl: what start-up failures print of DATABASE_URL and REDIS_URL never holds a password.
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/startup.js';

describe('redactUrl', () => {
  it.each([
    ['postgres://questline:s3cret@db.example:5432/questline', 'postgres://questline:***@db.example:5432/questline'],
    ['postgres://db.example/questline?user=q&password=s3cret&sslmode=verify-full', 'postgres://db.example/questline?user=q&password=***&sslmode=verify-full'],
    ['redis://:s3cret@cache.example:6379/0', 'redis://:***@cache.example:6379/0'],
    ['rediss://default:s3cret@cache.example', 'rediss://default:***@cache.example'],
    ['postgres://nohost/x', 'postgres://nohost/x'],
    ['not a url //user:s3cret@host', 'not a url //user:***@host'],
  ])('%s', (url, printed) => {
    expect(redactUrl(url)).toBe(printed);
    expect(redactUrl(url)).not.toContain('s3cret');
  });
});
