// How the blocks name an action to a person (ui/src/action-label.ts, docs/ui.md "Actions in words"):
// the page's words, else the program's description, else Questline's words for a system action,
// else the name made readable. Pure: no browser.
import { describe, expect, it } from 'vitest';
import { actionLabel, humanised } from '../../ui/src/action-label.js';
import { SYSTEM_ACTIONS } from '../../src/modules/program/model.js';

const noTexts = (_key: string, fallback: string) => fallback;

describe('action labels', () => {
  it.each([
    ['watch_video', 'Watch video'],
    ['watchVideo', 'Watch video'],
    ['WATCH-VIDEO', 'Watch video'],
    ['DAILY_LOGIN', 'Daily login'],
    ['read.article', 'Read article'],
    ['level2_reached', 'Level2 reached'],
    ['x', 'X'],
    ['__', '__'],
  ])('makes %s readable: %s', (name, readable) => {
    expect(humanised(name)).toBe(readable);
  });

  it('has words for every system action, none of them its name', () => {
    for (const action of SYSTEM_ACTIONS) {
      const label = actionLabel({ action, description: null }, noTexts);
      expect(label, action).not.toBe(humanised(action));
      expect(label, action).toMatch(/^[A-Z][a-z]+ [a-z ]+$/);
    }
  });

  it("prefers the page's words, then the program's description, then Questline's, then the name", () => {
    const texts = (key: string, fallback: string) => ({ 'action.QUIZ_COMPLETED': 'Quiz réussi' })[key] ?? fallback;
    expect(actionLabel({ action: 'QUIZ_COMPLETED', description: 'Passed the quiz' }, texts)).toBe('Quiz réussi');
    expect(actionLabel({ action: 'QUIZ_COMPLETED', description: 'Passed the quiz' }, noTexts)).toBe('Passed the quiz');
    expect(actionLabel({ action: 'QUIZ_COMPLETED', description: null }, noTexts)).toBe('Completed a quiz');
    expect(actionLabel({ action: 'watch_video', description: null }, noTexts)).toBe('Watch video');
    // An inherited property is not a system action's words.
    expect(actionLabel({ action: 'constructor', description: null }, noTexts)).toBe('Constructor');
  });
});
