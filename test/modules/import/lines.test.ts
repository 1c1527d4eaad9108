// One line of an import file (docs/import.md), the pure part: parseImportLine reads a JSON object
// naming exactly one of a user and a group and passes the action's fields on untouched (the engine
// validates them); a line without an eventId gets derivedEventId(line number, text), the same on
// every run of the same file; anything that is not an import line is validation_failed, naming the
// field at fault when there is one.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError, type FieldError } from '../../../src/errors.js';
import { derivedEventId, parseImportLine } from '../../../src/modules/import/lines.js';

const DERIVED = /^imp-[A-Za-z0-9_-]{32}$/;

/** The AppError parseImportLine throws for the line (fails the test when it parses). */
function rejectionOf(text: string, lineNumber = 1): AppError {
  try {
    parseImportLine(text, lineNumber);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`parseImportLine accepted ${text}`);
}

describe('parseImportLine: valid lines', () => {
  it.each<[string, Record<string, unknown>, { party: 'user' | 'group'; partyId: string; body: Record<string, unknown> }]>([
    ['a user line with only an action', { userId: 'ann', action: 'read' }, { party: 'user', partyId: 'ann', body: { action: 'read' } }],
    [
      'a user line with every field',
      { userId: 'ann', action: 'Read', value: 3.5, metadata: { genre: 'cooking', n: 2 }, eventId: 'legacy-1', timestamp: '2026-03-01T10:15:00Z' },
      {
        party: 'user',
        partyId: 'ann',
        body: { action: 'Read', value: 3.5, metadata: { genre: 'cooking', n: 2 }, eventId: 'legacy-1', timestamp: '2026-03-01T10:15:00Z' },
      },
    ],
    [
      'a group line with an epoch timestamp and form metadata',
      { groupId: 'team-7', action: 'sprint_done', metadata: 'a:1,b:2', timestamp: 1772360100 },
      { party: 'group', partyId: 'team-7', body: { action: 'sprint_done', metadata: 'a:1,b:2', timestamp: 1772360100 } },
    ],
    ['every id character', { userId: 'A-z_0.9@x:y+z', action: 'a' }, { party: 'user', partyId: 'A-z_0.9@x:y+z', body: { action: 'a' } }],
    ['a 255-character id', { groupId: 'g'.repeat(255), action: 'a' }, { party: 'group', partyId: 'g'.repeat(255), body: { action: 'a' } }],
    // The action's own fields are the engine's to judge (a bad value is rejected when it is logged).
    [
      'action fields of any type, passed through',
      { userId: 'u', action: 42, value: 'x', metadata: [1], timestamp: 'yesterday' },
      { party: 'user', partyId: 'u', body: { action: 42, value: 'x', metadata: [1], timestamp: 'yesterday' } },
    ],
    ['no action at all (the engine says it is required)', { userId: 'u' }, { party: 'user', partyId: 'u', body: {} }],
  ])('%s', (_name, object, expected) => {
    const text = JSON.stringify(object);
    const line = parseImportLine(text, 7);
    const eventId = 'eventId' in object ? object.eventId : derivedEventId(7, text);
    expect(line).toEqual({ party: expected.party, partyId: expected.partyId, body: { ...expected.body, eventId } });
    // Exactly the action's fields, the party's id is not among them.
    expect(
      Object.keys(line.body)
        .filter((key) => line.body[key as keyof typeof line.body] !== undefined)
        .sort(),
    ).toEqual(Object.keys({ ...expected.body, eventId }).sort());
  });

  it.each([
    ['a string id', 'legacy-88121'],
    ['an id an engine would refuse (kept: the engine says so)', ''],
    ['a number (kept as given)', 12],
  ])('keeps an eventId given as %s', (_name, eventId) => {
    const line = parseImportLine(JSON.stringify({ userId: 'ann', action: 'read', eventId }), 3);
    expect(line.body.eventId).toBe(eventId);
  });

  it('derives an eventId for a line whose eventId is null, as for one without', () => {
    const text = '{"userId":"ann","action":"read","eventId":null}';
    expect(parseImportLine(text, 4).body.eventId).toBe(derivedEventId(4, text));
  });

  it('derives the eventId of a line without one from its line number and its text', () => {
    const text = '{"userId":"ann","action":"read","timestamp":"2026-03-01T10:15:00Z"}';
    const line = parseImportLine(text, 12);
    expect(line.body.eventId).toBe(derivedEventId(12, text));
    expect(line.body.eventId).toMatch(DERIVED);
    // The same line elsewhere in the file is another action.
    expect(parseImportLine(text, 13).body.eventId).not.toBe(line.body.eventId);
  });

  it('accepts whitespace inside the JSON (the text, not the object, makes the derived id)', () => {
    const compact = '{"userId":"ann","action":"read"}';
    const spaced = '{ "userId": "ann",   "action": "read" }';
    expect(parseImportLine(spaced, 1)).toMatchObject({ party: 'user', partyId: 'ann', body: { action: 'read' } });
    expect(parseImportLine(spaced, 1).body.eventId).not.toBe(parseImportLine(compact, 1).body.eventId);
  });
});

describe('derivedEventId', () => {
  const text = '{"userId":"ann","action":"read"}';

  it('is imp- and 32 base64url characters of SHA-256(line number, newline, text)', () => {
    const id = derivedEventId(5, text);
    expect(id).toMatch(DERIVED);
    expect(id).toBe(`imp-${createHash('sha256').update(`5\n${text}`).digest('base64url').slice(0, 32)}`);
    expect(id.length).toBe(36);
  });

  it('is deterministic: the same line number and text give the same id on every call', () => {
    const ids = new Set(Array.from({ length: 5 }, () => derivedEventId(42, text)));
    expect(ids.size).toBe(1);
  });

  it.each<[string, number, string]>([
    ['another line number', 6, text],
    ['line 1 instead of 5', 1, text],
    ['another user', 5, '{"userId":"bob","action":"read"}'],
    ['one more space', 5, '{"userId":"ann", "action":"read"}'],
    ['a trailing space', 5, `${text} `],
    ['empty text', 5, ''],
  ])('differs for %s', (_name, lineNumber, other) => {
    expect(derivedEventId(lineNumber, other)).not.toBe(derivedEventId(5, text));
    expect(derivedEventId(lineNumber, other)).toMatch(DERIVED);
  });

  it('does not confuse the line number with the start of the text ("1" + "2…" vs "12" + "…")', () => {
    expect(derivedEventId(1, `2\n${text}`)).not.toBe(derivedEventId(12, text));
  });

  it('gives 10,000 distinct ids to 10,000 lines of one file, all of the format', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => derivedEventId(i + 1, `{"userId":"u${i % 7}","action":"read"}`));
    expect(ids.filter((id) => !DERIVED.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(10_000);
  });
});

describe('parseImportLine: rejections (validation_failed)', () => {
  it.each<[string, string, string]>([
    ['not JSON', '{"userId": "ann", "action": "read"', 'The line is not JSON'],
    ['plain text', 'hello', 'The line is not JSON'],
    ['two objects on a line', '{"userId":"a","action":"x"} {"userId":"b","action":"x"}', 'The line is not JSON'],
    ['a trailing comma', '{"userId":"ann","action":"read",}', 'The line is not JSON'],
    ['an array', '[{"userId":"ann","action":"read"}]', 'The line is not a JSON object'],
    ['null', 'null', 'The line is not a JSON object'],
    ['a string', '"ann"', 'The line is not a JSON object'],
    ['a number', '42', 'The line is not a JSON object'],
    ['true', 'true', 'The line is not a JSON object'],
  ])('%s: no field to name', (_name, text, message) => {
    const error = rejectionOf(text);
    expect(error.code).toBe('validation_failed');
    expect(error.status).toBe(400);
    expect(error.message).toBe(message);
    expect(error.options.errors).toBeUndefined();
  });

  const exactlyOne = { path: 'userId', message: 'exactly one of userId and groupId is required' };
  const badId = (path: 'userId' | 'groupId') => ({ path, message: 'must be 1–255 of A–Z a–z 0–9 - _ . @ : +' });
  const unknown = (path: string) => ({ path, message: 'is not a field of an import line' });

  const j = (object: Record<string, unknown>) => JSON.stringify(object);
  it.each<[string, string, FieldError[]]>([
    ['neither userId nor groupId', j({ action: 'read' }), [exactlyOne]],
    ['an empty object', j({}), [exactlyOne]],
    ['both userId and groupId', j({ userId: 'ann', groupId: 'g', action: 'read' }), [exactlyOne]],
    ['both, one of them null', j({ userId: 'ann', groupId: null, action: 'read' }), [exactlyOne]],
    ['a userId with a space', j({ userId: 'ann smith', action: 'read' }), [badId('userId')]],
    ['a userId with a slash', j({ userId: 'a/b', action: 'read' }), [badId('userId')]],
    ['a groupId with a non-ASCII letter', j({ groupId: 'équipe', action: 'read' }), [badId('groupId')]],
    ['an empty userId', j({ userId: '', action: 'read' }), [badId('userId')]],
    ['a 256-character userId', j({ userId: 'u'.repeat(256), action: 'read' }), [badId('userId')]],
    ['a 256-character groupId', j({ groupId: 'g'.repeat(256), action: 'read' }), [badId('groupId')]],
    ['a numeric userId', j({ userId: 123, action: 'read' }), [badId('userId')]],
    ['a null userId', j({ userId: null, action: 'read' }), [badId('userId')]],
    ['a groupId that is an object', j({ groupId: { id: 'g' }, action: 'read' }), [badId('groupId')]],
    ['a misspelt timestamp', j({ userId: 'ann', action: 'read', timestmap: '2026-03-01T10:15:00Z' }), [unknown('timestmap')]],
    ['a field of another API', j({ userId: 'ann', action: 'read', dryRun: true }), [unknown('dryRun')]],
    ['a field in another case', j({ userId: 'ann', Action: 'read' }), [unknown('Action')]],
    // JSON.parse makes "__proto__" an own property: a field like any other.
    ['__proto__ as a field', '{"userId":"ann","action":"read","__proto__":{"x":1}}', [unknown('__proto__')]],
    ['two unknown fields and no party', j({ user: 'ann', action: 'read', when: 1 }), [unknown('user'), unknown('when'), exactlyOne]],
    ['an unknown field and a bad id', j({ groupId: 'a b', action: 'read', extra: 1 }), [unknown('extra'), badId('groupId')]],
  ])('%s', (_name, text, errors) => {
    const error = rejectionOf(text);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('The line is invalid');
    expect(error.options.errors).toEqual(errors);
  });
});
