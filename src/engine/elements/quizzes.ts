// SPEC §10: scoring a quiz attempt. An answer is correct when it names exactly the question's
// correct choices (a multiple-choice answer with only some of them is wrong); an attempt passes
// when its share of correct answers reaches the quiz's passingPercent.

export interface ScoredQuestion {
  id: string;
  choices: ReadonlyArray<{ id: string; correct: boolean }>;
}

export interface AttemptScore {
  totalCorrect: number;
  totalQuestions: number;
  /** Rounded to two decimals (what missions and the API see). */
  percentCorrect: number;
  passed: boolean;
}

export function isCorrect(question: ScoredQuestion, choiceIds: readonly string[]): boolean {
  const correct = new Set(question.choices.filter((choice) => choice.correct).map((choice) => choice.id));
  const given = new Set(choiceIds);
  return given.size === correct.size && [...given].every((id) => correct.has(id));
}

/** The score of an attempt from the correctness of its answers, one per question. */
export function scoreAttempt(passingPercent: number, answers: readonly boolean[]): AttemptScore {
  const totalQuestions = answers.length;
  const totalCorrect = answers.filter(Boolean).length;
  const ratio = totalQuestions === 0 ? 0 : totalCorrect / totalQuestions;
  // Passing compares the exact share (2 of 3 is not 66.67% rounded up to a 66.67 threshold's favour).
  return { totalCorrect, totalQuestions, percentCorrect: Math.round(ratio * 10_000) / 100, passed: totalCorrect * 100 >= passingPercent * totalQuestions };
}
