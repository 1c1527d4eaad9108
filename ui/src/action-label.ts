// How a block names an action to a person: the page's own words for it (`texts` key
// `action.<name>`), else the program's description of it, else Questline's words for its system
// actions, else its name made readable (`watch_video` → "Watch video"). docs/ui.md "Texts".
import type { SYSTEM_ACTIONS } from '../../src/modules/program/model.js';

/** Questline's words for the actions it logs itself (a new system action fails the type check until it has some). */
const SYSTEM_LABELS: Record<(typeof SYSTEM_ACTIONS)[number], string> = {
  QUIZ_COMPLETED: 'Completed a quiz',
  OTS_REDEMPTION: 'Redeemed a code',
  RECOGNITION_GIVEN: 'Recognized a colleague',
  RECOGNITION_RECEIVED: 'Received a recognition',
};

/** A page's text for a key, or the fallback (QuestlineElement.text). */
type TextOf = (key: string, fallback: string) => string;

export function actionLabel(action: { action: string; description: string | null }, text: TextOf): string {
  const own = Object.hasOwn(SYSTEM_LABELS, action.action) ? SYSTEM_LABELS[action.action as keyof typeof SYSTEM_LABELS] : undefined;
  return text(`action.${action.action}`, action.description ?? own ?? humanised(action.action));
}

/** `watch_video`, `watchVideo`, `WATCH-VIDEO` → "Watch video". */
export function humanised(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[\s_.\-:]+/)
    .filter((word) => word !== '')
    .join(' ')
    .toLowerCase();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}
