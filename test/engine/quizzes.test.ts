// Quiz scoring in the pure engine (SPEC §10): an answer is correct when it names exactly the
// question's correct choices (order does not matter; a multiple-choice answer with only some of them,
// or with a wrong one besides, is wrong); an attempt's percent correct is rounded to two decimals
// while passing compares the exact share (correct × 100 ≥ passingPercent × total).
import { describe, expect, it } from 'vitest';
import { isCorrect, scoreAttempt, type AttemptScore, type ScoredQuestion } from '../../src/engine/elements/quizzes.js';

const question = (id: string, correct: string[], wrong: string[]): ScoredQuestion => ({
  id,
  choices: [...correct.map((c) => ({ id: c, correct: true })), ...wrong.map((c) => ({ id: c, correct: false }))],
});
/** Single choice: a is right, b and c are wrong. */
const single = question('q-single', ['a'], ['b', 'c']);
/** Multiple choice: a and b are right, c and d are wrong. */
const multiple = question('q-multiple', ['a', 'b'], ['c', 'd']);
/** Multiple choice whose correct choices are listed after the wrong ones. */
const multipleLate: ScoredQuestion = {
  id: 'q-late',
  choices: [
    { id: 'x', correct: false },
    { id: 'y', correct: true },
    { id: 'z', correct: true },
  ],
};

describe('isCorrect', () => {
  it.each<[string, ScoredQuestion, string[], boolean]>([
    ['single: the right choice', single, ['a'], true],
    ['single: a wrong choice', single, ['b'], false],
    ['single: the other wrong choice', single, ['c'], false],
    ['single: the right choice and a wrong one', single, ['a', 'b'], false],
    ['single: nothing', single, [], false],
    ['single: a choice the question does not have', single, ['zz'], false],
    ['multiple: exactly the right set', multiple, ['a', 'b'], true],
    ['multiple: exactly the right set, in another order', multiple, ['b', 'a'], true],
    ['multiple: partial (one of two right)', multiple, ['a'], false],
    ['multiple: partial (the other one)', multiple, ['b'], false],
    ['multiple: superset (a wrong one besides)', multiple, ['a', 'b', 'c'], false],
    ['multiple: every choice', multiple, ['a', 'b', 'c', 'd'], false],
    ['multiple: one right, one wrong (same size as the right set)', multiple, ['a', 'c'], false],
    ['multiple: only wrong ones', multiple, ['c', 'd'], false],
    ['multiple: nothing', multiple, [], false],
    ['multiple: the right set plus an unknown id', multiple, ['a', 'b', 'zz'], false],
    ['multiple: correct choices listed last', multipleLate, ['z', 'y'], true],
    ['multiple: correct choices listed last, partial', multipleLate, ['y'], false],
  ])('%s', (_name, q, choiceIds, expected) => {
    expect(isCorrect(q, choiceIds)).toBe(expected);
  });

  it('does not depend on the order or on the array it is given (no mutation)', () => {
    const given = ['b', 'a'];
    expect(isCorrect(multiple, given)).toBe(true);
    expect(given).toEqual(['b', 'a']);
  });
});

describe('scoreAttempt', () => {
  const answers = (correct: number, total: number) => Array.from({ length: total }, (_, i) => i < correct);

  it.each<[string, number, boolean[], AttemptScore]>([
    // 2 of 3 shows as 66.67, but 2×100 = 200 < 66.67×3 = 200.01: the exact share is below the threshold.
    [
      '2 of 3 at 66.67 fails (exact share, not the rounded percent)',
      66.67,
      answers(2, 3),
      { totalCorrect: 2, totalQuestions: 3, percentCorrect: 66.67, passed: false },
    ],
    ['2 of 3 at 66 passes', 66, answers(2, 3), { totalCorrect: 2, totalQuestions: 3, percentCorrect: 66.67, passed: true }],
    ['1 of 3 at 33.33 passes', 33.33, answers(1, 3), { totalCorrect: 1, totalQuestions: 3, percentCorrect: 33.33, passed: true }],
    ['1 of 3 at 33.34 fails', 33.34, answers(1, 3), { totalCorrect: 1, totalQuestions: 3, percentCorrect: 33.33, passed: false }],
    ['3 of 5 at 60 passes (exactly at the threshold)', 60, answers(3, 5), { totalCorrect: 3, totalQuestions: 5, percentCorrect: 60, passed: true }],
    ['2 of 5 at 60 fails', 60, answers(2, 5), { totalCorrect: 2, totalQuestions: 5, percentCorrect: 40, passed: false }],
    ['7 of 10 at 70 passes (exactly at the threshold)', 70, answers(7, 10), { totalCorrect: 7, totalQuestions: 10, percentCorrect: 70, passed: true }],
    ['100% required: all right passes', 100, answers(3, 3), { totalCorrect: 3, totalQuestions: 3, percentCorrect: 100, passed: true }],
    ['100% required: one wrong fails', 100, answers(2, 3), { totalCorrect: 2, totalQuestions: 3, percentCorrect: 66.67, passed: false }],
    ['100% required: 1 of 1 passes', 100, [true], { totalCorrect: 1, totalQuestions: 1, percentCorrect: 100, passed: true }],
    ['100% required: 0 of 1 fails', 100, [false], { totalCorrect: 0, totalQuestions: 1, percentCorrect: 0, passed: false }],
    ['0% required: nothing right still passes', 0, answers(0, 3), { totalCorrect: 0, totalQuestions: 3, percentCorrect: 0, passed: true }],
    ['rounding: 1 of 6 is 16.67', 50, answers(1, 6), { totalCorrect: 1, totalQuestions: 6, percentCorrect: 16.67, passed: false }],
    ['rounding: 5 of 7 is 71.43', 71.43, answers(5, 7), { totalCorrect: 5, totalQuestions: 7, percentCorrect: 71.43, passed: false }],
    ['rounding: 5 of 7 at 71.42 passes', 71.42, answers(5, 7), { totalCorrect: 5, totalQuestions: 7, percentCorrect: 71.43, passed: true }],
    ['rounding: 1 of 8 is 12.5', 12.5, answers(1, 8), { totalCorrect: 1, totalQuestions: 8, percentCorrect: 12.5, passed: true }],
    // Unreachable through a program (a quiz has at least one question): 0 of 0 shows 0% and passes vacuously (0 ≥ p × 0).
    ['no questions', 100, [], { totalCorrect: 0, totalQuestions: 0, percentCorrect: 0, passed: true }],
  ])('%s', (_name, passingPercent, given, expected) => {
    expect(scoreAttempt(passingPercent, given)).toEqual(expected);
  });

  it('counts correct answers wherever they are in the attempt', () => {
    expect(scoreAttempt(50, [false, true, false, true])).toEqual({ totalCorrect: 2, totalQuestions: 4, percentCorrect: 50, passed: true });
    expect(scoreAttempt(50, [false, false, false, true])).toEqual({ totalCorrect: 1, totalQuestions: 4, percentCorrect: 25, passed: false });
  });

  it('rounds every share of up to 50 questions to at most two decimals', () => {
    for (let total = 1; total <= 50; total++) {
      for (let correct = 0; correct <= total; correct++) {
        const { percentCorrect } = scoreAttempt(100, answers(correct, total));
        expect(Math.abs(percentCorrect - (correct * 100) / total)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(Math.round(percentCorrect * 100) / 100).toBe(percentCorrect);
      }
    }
  });
});
