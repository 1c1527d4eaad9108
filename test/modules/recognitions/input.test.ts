// parseRecognitionInput (SPEC §2 form bodies, §9): the body of POST /users/{u}/interactions-collection,
// as JSON or as a form (every value a string, lists as a repeated key or `a,b`, the per-recipient map
// as `ann:5,bob:15`), turned into one list of recipients with their amounts. Pure: no app.
import { describe, expect, it } from 'vitest';
import { AppError, type FieldError } from '../../../src/errors.js';
import { MAX_COMMENT, parseRecognitionInput, type RecognitionInput } from '../../../src/modules/recognitions/input.js';

const base = { exchangeId: 'x-kudos', categoryId: 'c-teamwork' };

/** The field errors parseRecognitionInput throws for `body` (and that it throws a validation_failed AppError). */
function errorsOf(body: unknown): FieldError[] {
  let thrown: unknown;
  try {
    parseRecognitionInput(body);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected ${JSON.stringify(body)?.slice(0, 200)} to be refused`).toBeInstanceOf(AppError);
  const error = thrown as AppError;
  expect(error.code).toBe('validation_failed');
  expect(error.status).toBe(400);
  return error.options.errors ?? [];
}

describe('parseRecognitionInput: accepted bodies', () => {
  const accepted: Array<[string, Record<string, unknown>, RecognitionInput]> = [
    [
      'JSON: one amount for a list of recipients',
      { ...base, recipients: ['ann', 'bob'], points: 5, comment: 'Thanks!' },
      {
        ...base,
        comment: 'Thanks!',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 5 },
        ],
      },
    ],
    [
      'form: points as a string, recipients comma-separated',
      { ...base, recipients: 'ann,bob', points: '5' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 5 },
        ],
      },
    ],
    [
      'form: spaces around the comma-separated recipients and the amount are dropped',
      { ...base, recipients: ' ann , bob ', points: ' 7 ' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 7 },
          { userId: 'bob', points: 7 },
        ],
      },
    ],
    [
      'form: recipients as a repeated key (an array of strings)',
      { ...base, recipients: ['ann', 'bob'], points: '5' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 5 },
        ],
      },
    ],
    ['form: one recipient', { ...base, recipients: 'ann', points: '1' }, { ...base, comment: '', recipients: [{ userId: 'ann', points: 1 }] }],
    [
      'form: recipientPoints as userId:points pairs, standing for the recipients list',
      { ...base, recipientPoints: 'ann:5,bob:15' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 15 },
        ],
      },
    ],
    [
      'form: recipientPoints with user ids containing ":" (the last colon splits)',
      { ...base, recipientPoints: 'x:y:5,bob:15,a:b:c:2' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'x:y', points: 5 },
          { userId: 'bob', points: 15 },
          { userId: 'a:b:c', points: 2 },
        ],
      },
    ],
    [
      'form: recipientPoints with spaces, and an empty points field',
      { ...base, recipientPoints: ' ann : 5 , bob:15', points: '' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 15 },
        ],
      },
    ],
    [
      'JSON: recipientPoints as an object',
      { ...base, recipientPoints: { ann: 5, bob: 15 } },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 15 },
        ],
      },
    ],
    [
      'JSON: recipientPoints as an object of strings',
      { ...base, recipientPoints: { ann: '5' } },
      { ...base, comment: '', recipients: [{ userId: 'ann', points: 5 }] },
    ],
    [
      'form: recipients and recipientPoints naming the same users',
      { ...base, recipients: 'ann,bob', recipientPoints: 'ann:5,bob:15' },
      {
        ...base,
        comment: '',
        recipients: [
          { userId: 'ann', points: 5 },
          { userId: 'bob', points: 15 },
        ],
      },
    ],
    [
      'a null comment is empty',
      { ...base, recipients: ['ann'], points: 2, comment: null },
      { ...base, comment: '', recipients: [{ userId: 'ann', points: 2 }] },
    ],
    [
      'ids of every allowed character',
      { exchangeId: 'X.y-z_1@a:b+c', categoryId: 'C1', recipients: ['user@example.com', 'a+b', 'x:y'], points: 3 },
      {
        exchangeId: 'X.y-z_1@a:b+c',
        categoryId: 'C1',
        comment: '',
        recipients: [
          { userId: 'user@example.com', points: 3 },
          { userId: 'a+b', points: 3 },
          { userId: 'x:y', points: 3 },
        ],
      },
    ],
    [
      'numeric ids in JSON are read as text',
      { exchangeId: 12, categoryId: 7, recipients: ['ann'], points: 1 },
      { exchangeId: '12', categoryId: '7', comment: '', recipients: [{ userId: 'ann', points: 1 }] },
    ],
  ];

  it.each(accepted)('%s', (_name, body, expected) => {
    expect(parseRecognitionInput(body)).toEqual(expected);
  });

  it('leaves out the comment as an empty comment', () => {
    const input = parseRecognitionInput({ ...base, recipients: ['ann'], points: 1 });
    expect(input.comment).toBe('');
  });

  it('does not change the body it reads', () => {
    const body = { ...base, recipients: 'ann,bob', points: '5' };
    const copy = structuredClone(body);
    parseRecognitionInput(body);
    expect(body).toEqual(copy);
  });

  it('counts the comment in code points: 255 emoji (510 UTF-16 units) are allowed', () => {
    expect(MAX_COMMENT).toBe(255);
    const comment = '🎉'.repeat(255);
    expect(comment.length).toBe(510);
    expect(parseRecognitionInput({ ...base, recipients: ['ann'], points: 1, comment }).comment).toBe(comment);
    expect(parseRecognitionInput({ ...base, recipients: ['ann'], points: 1, comment: 'a'.repeat(255) }).comment).toHaveLength(255);
    // Combining marks are code points of their own: 127 × (e + U+0301) = 254 code points.
    const combining = 'e\u0301'.repeat(127);
    expect(parseRecognitionInput({ ...base, recipients: ['ann'], points: 1, comment: combining }).comment).toBe(combining);
  });

  it('takes up to 1000 recipients', () => {
    const users = Array.from({ length: 1000 }, (_, i) => `u${i}`);
    const input = parseRecognitionInput({ ...base, recipients: users.join(','), points: '1' });
    expect(input.recipients).toHaveLength(1000);
    expect(input.recipients[999]).toEqual({ userId: 'u999', points: 1 });
  });
});

describe('parseRecognitionInput: refused bodies (validation_failed with the field of each problem)', () => {
  const refused: Array<[string, unknown, string[]]> = [
    ['null body', null, ['(body)']],
    ['an array body', [base], ['(body)']],
    ['a string body', 'exchangeId=x', ['(body)']],
    ['no exchangeId', { categoryId: 'c-1', recipients: ['ann'], points: 1 }, ['exchangeId']],
    ['an exchangeId that is not an id', { ...base, exchangeId: 'x kudos', recipients: ['ann'], points: 1 }, ['exchangeId']],
    ['an empty exchangeId', { ...base, exchangeId: '', recipients: ['ann'], points: 1 }, ['exchangeId']],
    ['an exchangeId that is an object', { ...base, exchangeId: { id: 'x' }, recipients: ['ann'], points: 1 }, ['exchangeId']],
    ['no categoryId', { exchangeId: 'x', recipients: ['ann'], points: 1 }, ['categoryId']],
    ['a categoryId of 256 characters', { ...base, categoryId: 'c'.repeat(256), recipients: ['ann'], points: 1 }, ['categoryId']],
    ['a comment that is not a string', { ...base, comment: { text: 'hi' }, recipients: ['ann'], points: 1 }, ['comment']],
    ['a comment of 256 code points', { ...base, comment: '🎉'.repeat(256), recipients: ['ann'], points: 1 }, ['comment']],
    ['a comment of 256 ASCII characters', { ...base, comment: 'a'.repeat(256), recipients: ['ann'], points: 1 }, ['comment']],
    ['neither points nor recipientPoints', { ...base, recipients: ['ann'] }, ['points']],
    ['an empty points field and no recipientPoints', { ...base, recipients: 'ann', points: '' }, ['points']],
    ['both points and recipientPoints', { ...base, recipients: ['ann'], points: 5, recipientPoints: { ann: 5 } }, ['points']],
    ['points without recipients', { ...base, points: 5 }, ['recipients']],
    ['points 0', { ...base, recipients: ['ann'], points: 0 }, ['points']],
    ['negative points', { ...base, recipients: ['ann'], points: -3 }, ['points']],
    ['fractional points', { ...base, recipients: ['ann'], points: 1.5 }, ['points']],
    ['form points that are not a number', { ...base, recipients: 'ann', points: 'five' }, ['points']],
    ['form points with trailing text', { ...base, recipients: 'ann', points: '5x' }, ['points']],
    ['form points 0', { ...base, recipients: 'ann', points: '0' }, ['points']],
    ['boolean points', { ...base, recipients: ['ann'], points: true }, ['points']],
    ['null points', { ...base, recipients: ['ann'], points: null }, ['points']],
    ['points beyond the safe integers', { ...base, recipients: ['ann'], points: 2 ** 53 }, ['points']],
    ['recipients that are a number', { ...base, recipients: 5, points: 1 }, ['recipients']],
    ['recipients that are not all strings', { ...base, recipients: ['ann', 7], points: 1 }, ['recipients']],
    ['recipients that are an object', { ...base, recipients: { ann: true }, points: 1 }, ['recipients']],
    ['an empty recipients list', { ...base, recipients: [], points: 1 }, ['recipients']],
    ['an empty form recipients field', { ...base, recipients: '', points: '1' }, ['recipients']],
    ['a recipient that is not a user id', { ...base, recipients: ['ann', 'bob smith'], points: 1 }, ['recipients']],
    ['an empty recipient between commas', { ...base, recipients: 'ann,,bob', points: '1' }, ['recipients']],
    ['a recipient named twice', { ...base, recipients: ['ann', 'bob', 'ann'], points: 1 }, ['recipients']],
    ['more than 1000 recipients', { ...base, recipients: Array.from({ length: 1001 }, (_, i) => `u${i}`), points: 1 }, ['recipients']],
    ['form recipientPoints without a colon', { ...base, recipientPoints: 'ann5' }, ['recipientPoints']],
    ['form recipientPoints with a pair without a user', { ...base, recipientPoints: 'ann:5,:3' }, ['recipientPoints']],
    ['form recipientPoints with an amount that is not a number', { ...base, recipientPoints: 'ann:lots' }, ['recipientPoints.ann']],
    ['form recipientPoints with an empty amount', { ...base, recipientPoints: 'ann:' }, ['recipientPoints.ann']],
    ['form recipientPoints with 0 for one user', { ...base, recipientPoints: 'ann:5,bob:0' }, ['recipientPoints.bob']],
    ['form recipientPoints naming a user twice', { ...base, recipientPoints: 'ann:5,ann:6' }, ['recipientPoints.ann']],
    ['recipientPoints that are an array', { ...base, recipientPoints: [['ann', 5]] }, ['recipientPoints']],
    ['recipientPoints that are a number', { ...base, recipientPoints: 5 }, ['recipientPoints']],
    ['JSON recipientPoints with a negative amount', { ...base, recipientPoints: { ann: -1 } }, ['recipientPoints.ann']],
    ['JSON recipientPoints with a fractional amount', { ...base, recipientPoints: { ann: 2.5 } }, ['recipientPoints.ann']],
    ['an empty recipientPoints object', { ...base, recipientPoints: {} }, ['recipients']],
    ['recipientPoints keyed by something that is not a user id', { ...base, recipientPoints: { 'bob smith': 5 } }, ['recipients']],
    [
      'recipients and recipientPoints naming different users',
      { ...base, recipients: ['ann', 'carl'], recipientPoints: { ann: 5, bob: 6 } },
      ['recipientPoints'],
    ],
    ['recipients naming fewer users than recipientPoints', { ...base, recipients: 'ann', recipientPoints: 'ann:5,bob:6' }, ['recipientPoints']],
    ['recipients naming more users than recipientPoints', { ...base, recipients: ['ann', 'bob'], recipientPoints: { ann: 5 } }, ['recipientPoints']],
    [
      'several problems at once, all reported',
      { categoryId: 'bad id', comment: 'x'.repeat(300), recipients: ['ann'], points: 0 },
      ['exchangeId', 'categoryId', 'comment', 'points'],
    ],
  ];

  it.each(refused)('%s', (_name, body, paths) => {
    const errors = errorsOf(body);
    // Each field once, in the order of the body's fields (a field may carry more than one message).
    expect([...new Set(errors.map((e) => e.path))]).toEqual(paths);
    for (const error of errors) expect(error.message).toEqual(expect.any(String));
  });

  it('says why a recipients value that is not a list is refused', () => {
    for (const recipients of [5, ['ann', 7], { ann: true }]) {
      const errors = errorsOf({ ...base, recipients, points: 1 });
      expect(errors[0]).toEqual({ path: 'recipients', message: 'must be a list of user ids' });
    }
  });

  it('says how long a refused comment is, in code points', () => {
    const [error] = errorsOf({ ...base, comment: '🎉'.repeat(256), recipients: ['ann'], points: 1 });
    expect(error?.message).toContain('255');
    expect(error?.message).toContain('256');
  });

  it('names the user whose amount is wrong, including ids with ":"', () => {
    expect(errorsOf({ ...base, recipientPoints: 'x:y:0' }).map((e) => e.path)).toEqual(['recipientPoints.x:y']);
  });
});
