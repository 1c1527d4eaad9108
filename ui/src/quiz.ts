// <ql-quiz quiz-id>: take a quiz one question at a time, see after each answer whether it was right,
// and the attempt's result at the end (passed, percent correct, points, missions). Continues an
// attempt in progress where it left off. Calls GET /users/{u}/quizzes (status, attempts, best score),
// GET …/quizzes/{q}/questions, GET …/questions/{id}/responses (what the open attempt answered) and
// POST …/questions/{id}/responses; emits `ql-quiz-completed` with the result, and celebrates the
// badges the attempt earned (`ql-badge-earned`, ./celebration.ts).
import { css, html, nothing } from 'lit';
import type { AttemptResult as QuizResult, PresentedQuestion as Question, QuizSummary, RecordedAnswer } from '../../src/modules/quizzes/service.js';
import { formatNumber, QuestlineElement, QuestlineError, sharedStyles } from './base.js';
import { announceBadges, CELEBRATION_PARTS } from './celebration.js';

export type { QuizResult };

const percent = (value: number) => new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(value) + '%';

export class QlQuiz extends QuestlineElement {
  static override properties = {
    ...QuestlineElement.properties,
    quizId: { type: String, attribute: 'quiz-id' },
    summary: { state: true },
    missing: { state: true },
    questions: { state: true },
    answered: { state: true },
    selected: { state: true },
    feedback: { state: true },
    result: { state: true },
    submitting: { state: true },
    problem: { state: true },
  };
  static override styles = css`
    ${sharedStyles}
    p { margin: 0 0 8px; overflow-wrap: anywhere; }
    fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
    legend { font-weight: 600; padding: 0; margin-bottom: 8px; overflow-wrap: anywhere; }
    .choices { display: grid; gap: 6px; margin-bottom: 12px; }
    .choice { display: flex; gap: 8px; align-items: flex-start; padding: 6px 8px; border: 1px solid var(--ql-color-border, #d9dde7);
      border-radius: calc(var(--ql-radius, 10px) / 2); cursor: pointer; overflow-wrap: anywhere; min-width: 0; }
    .choice input { margin-top: 0.2em; flex: none; }
    .actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
    .correct { color: var(--ql-color-success, #2b8a3e); font-weight: 600; }
    .wrong { color: var(--ql-color-error, #c92a2a); font-weight: 600; }
    .result { margin-top: 8px; }
    .result ul { margin: 0 0 8px; }
    h3 { margin: 0 0 6px; font-size: 1em; }
    h3:focus { outline: none; }
    .done { color: var(--ql-color-success, #2b8a3e); font-weight: 600; }
  `;

  declare quizId: string;
  declare summary: QuizSummary | null;
  declare missing: boolean;
  declare questions: Question[];
  declare answered: ReadonlySet<string>;
  declare selected: ReadonlySet<string>;
  declare feedback: { correct: boolean; questionId: string } | null;
  declare result: QuizResult | null;
  declare submitting: boolean;
  declare problem: string | null;
  protected static override reloadOn = ['quizId'];

  constructor() {
    super();
    this.quizId = '';
    this.summary = null;
    this.missing = false;
    this.questions = [];
    this.answered = new Set();
    this.selected = new Set();
    this.feedback = null;
    this.result = null;
    this.submitting = false;
    this.problem = null;
  }

  private get base(): string {
    return `${this.user}/quizzes/${encodeURIComponent(this.quizId)}`;
  }

  // A shown result stays through a reload (the page refreshes every block on ql-quiz-completed).
  protected async load(): Promise<void> {
    if (this.quizId === '') return;
    const summary = (await this.api<QuizSummary[]>(`${this.user}/quizzes`)).find((q) => q.id === this.quizId) ?? null;
    this.missing = summary === null;
    if (summary === null) {
      this.summary = null;
      return;
    }
    const questions = await this.api<Question[]>(`${this.base}/questions`);
    const answered = new Set<string>();
    const current = summary.currentAttempt;
    if (current !== null && current.answered > 0) {
      const past = await Promise.all(
        questions.map((q) => this.api<Array<{ attempt: number }>>(`${this.base}/questions/${encodeURIComponent(q.id)}/responses`)),
      );
      questions.forEach((q, i) => {
        if (past[i]?.some((a) => a.attempt === current.attempt)) answered.add(q.id);
      });
    }
    this.summary = summary;
    this.questions = questions;
    if (this.feedback === null) this.answered = answered;
  }

  /** The question on screen: the one just answered while its feedback shows, else the first unanswered. */
  private get question(): Question | undefined {
    if (this.feedback !== null) return this.questions.find((q) => q.id === this.feedback?.questionId);
    return this.questions.find((q) => !this.answered.has(q.id));
  }

  private choose(question: Question, choiceId: string, checked: boolean): void {
    if (question.type === 'single') this.selected = new Set([choiceId]);
    else {
      const next = new Set(this.selected);
      if (checked) next.add(choiceId);
      else next.delete(choiceId);
      this.selected = next;
    }
  }

  private focusLater(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  private async submit(event: Event, question: Question): Promise<void> {
    event.preventDefault();
    if (this.selected.size === 0 || this.submitting) return;
    this.submitting = true;
    this.problem = null;
    try {
      const answer = await this.api<RecordedAnswer>(`${this.base}/questions/${encodeURIComponent(question.id)}/responses`, {
        method: 'POST',
        body: { choiceIds: [...this.selected] },
      });
      this.answered = new Set([...this.answered, question.id]);
      this.feedback = { correct: answer.correct, questionId: question.id };
      if (answer.result !== null) {
        this.result = answer.result;
        this.emit('ql-quiz-completed', answer.result);
        announceBadges(this, answer.result.badgesEarned);
        this.focusLater('#result-title');
        // Attempts and best score changed; unless a listener of the event already refreshed this block.
        if (!this.loading) await this.refresh();
      } else this.focusLater('[part~="next"]');
    } catch (error) {
      this.problem = (error as Error).message;
      // Answered elsewhere already: go on to the next question. Closed, passed or out of attempts: show it.
      if (error instanceof QuestlineError && error.code === 'already_answered') {
        this.answered = new Set([...this.answered, question.id]);
        this.selected = new Set();
      } else if (error instanceof QuestlineError && error.status === 422) void this.refresh();
    } finally {
      this.submitting = false;
    }
  }

  private next(): void {
    this.feedback = null;
    this.selected = new Set();
    this.focusLater('input[name="choice"]');
  }

  private tryAgain(): void {
    this.result = null;
    this.feedback = null;
    this.selected = new Set();
    this.answered = new Set();
    this.focusLater('input[name="choice"]');
    void this.refresh();
  }

  private renderQuestion(summary: QuizSummary, question: Question) {
    const index = this.questions.indexOf(question);
    const feedback = this.feedback;
    const locked = feedback !== null || this.submitting;
    const attempt = summary.currentAttempt?.attempt ?? summary.attemptsUsed + 1;
    return html`<form part="question" data-question=${question.id} @submit=${(e: Event) => this.submit(e, question)}>
      <p part="progress" class="muted">
        Question ${index + 1} of ${this.questions.length}${summary.maxAttempts === null ? nothing : html` · attempt ${attempt} of ${summary.maxAttempts}`}
      </p>
      <fieldset part="fieldset" ?disabled=${locked}>
        <legend part="legend">${question.text}</legend>
        ${question.type === 'multiple' ? html`<p part="instructions" class="muted">Choose all that apply.</p>` : nothing}
        <div class="choices" part="choices">
          ${question.choices.map(
            (choice) => html`<label class="choice" part="choice">
              <input type=${question.type === 'single' ? 'radio' : 'checkbox'} name="choice" part="choice-input" value=${choice.id}
                .checked=${this.selected.has(choice.id)} @change=${(e: Event) => this.choose(question, choice.id, (e.target as HTMLInputElement).checked)} />
              <span>${choice.text}</span>
            </label>`,
          )}
        </div>
      </fieldset>
      <div part="feedback" role="status">
        ${feedback === null ? nothing : feedback.correct ? html`<p class="correct">Correct!</p>` : html`<p class="wrong">Not quite: that answer is wrong.</p>`}
      </div>
      <div class="actions">
        ${
          feedback === null
            ? html`<button type="submit" part="submit" ?disabled=${this.selected.size === 0 || this.submitting}>${this.submitting ? 'Submitting…' : 'Submit answer'}</button>`
            : this.result === null
              ? html`<button type="button" part="next" @click=${this.next}>Next question</button>`
              : nothing
        }
      </div>
    </form>`;
  }

  private renderResult(summary: QuizSummary | null, result: QuizResult) {
    const canRetry = !result.passed && summary !== null && summary.status !== 'passed' && (summary.attemptsLeft === null || summary.attemptsLeft > 0);
    const points = result.pointsAwarded.filter((p) => p.credited > 0);
    const feedback = this.feedback;
    return html`<div part="result" class="result" data-passed=${String(result.passed)}>
      ${feedback === null ? nothing : html`<p part="feedback" role="status" class=${feedback.correct ? 'correct' : 'wrong'}>Your last answer was ${feedback.correct ? 'correct' : 'wrong'}.</p>`}
      <h3 id="result-title" part="result-title" tabindex="-1" class=${result.passed ? 'correct' : 'wrong'}>${result.passed ? 'Passed!' : 'Not passed'}</h3>
      <p part="score">You answered ${result.totalCorrect} of ${result.totalQuestions} correctly: <strong>${percent(result.percentCorrect)}</strong>${
        summary === null ? nothing : html` (${percent(summary.passingPercent)} needed to pass)`
      }.</p>
      ${
        points.length === 0
          ? nothing
          : html`<ul part="points-awarded">${points.map((p) => html`<li>Points awarded: +${formatNumber(p.credited)} ${p.category}</li>`)}</ul>`
      }
      ${
        result.missionsCompleted.length === 0
          ? nothing
          : html`<ul part="missions-completed">${result.missionsCompleted.map((m) => html`<li>Mission completed: ${m.name}</li>`)}</ul>`
      }
      ${
        canRetry
          ? html`<div class="actions">
            <button type="button" part="try-again" @click=${this.tryAgain}>Try again</button>
            ${summary?.attemptsLeft == null ? nothing : html`<span part="attempts-left" class="muted">${summary.attemptsLeft} ${summary.attemptsLeft === 1 ? 'attempt' : 'attempts'} left</span>`}
          </div>`
          : !result.passed && summary !== null && summary.attemptsLeft === 0
            ? html`<p part="exhausted" class="notice">No attempts left.</p>`
            : nothing
      }
    </div>`;
  }

  private renderBody(summary: QuizSummary) {
    if (this.result !== null) return this.renderResult(summary, this.result);
    const best = summary.bestScore === null ? nothing : html`<p part="best-score" class="muted">Your best score: ${percent(summary.bestScore)}.</p>`;
    if (summary.status === 'passed') return html`<p part="passed" class="done">You passed this quiz.</p>${best}`;
    if (summary.currentAttempt === null && summary.attemptsLeft === 0)
      return html`<p part="exhausted" class="notice">You have used all your attempts (${summary.attemptsUsed}).</p>${best}`;
    const question = this.question;
    if (question === undefined) return html`<p part="empty" class="muted">This quiz has no questions to answer.</p>`;
    return html`${best}${this.renderQuestion(summary, question)}`;
  }

  protected override render() {
    const summary = this.summary;
    return html`
      <section part="container" aria-labelledby="title">
        <h2 id="title" part="title">${summary?.name ?? 'Quiz'}</h2>
        <ql-badge-celebration base-url=${this.baseUrl} .texts=${this.texts} exportparts=${CELEBRATION_PARTS}></ql-badge-celebration>
        ${summary?.description === undefined ? nothing : html`<p part="description" class="muted">${summary.description}</p>`}
        ${
          summary === null
            ? nothing
            : html`<p part="rules" class="muted">${summary.questionCount} ${summary.questionCount === 1 ? 'question' : 'questions'} · pass with ${percent(summary.passingPercent)}${
                summary.attemptsLeft === null || summary.status === 'passed'
                  ? nothing
                  : html` · ${summary.attemptsLeft} of ${summary.maxAttempts} attempts left`
              }.</p>`
        }
        ${this.status()}
        ${this.problem === null ? nothing : html`<p part="problem" class="error" role="alert">${this.problem}</p>`}
        ${this.missing && this.result === null ? html`<p part="closed" class="notice">This quiz is not open now.</p>` : nothing}
        ${summary !== null ? this.renderBody(summary) : this.result !== null ? this.renderResult(null, this.result) : nothing}
      </section>
    `;
  }
}
