// The Questline UI blocks (SPEC §14), one ES module served at /elements/questline.js. Importing it
// defines every element; a page then uses them with base-url, user-id and a user-level token.
import { QlAtAGlance } from './at-a-glance.js';
import { QlAwardBalance } from './award-balance.js';
import { QlBadgeCelebration } from './celebration.js';
import { QlLeaderboard } from './leaderboard.js';
import { QlLevel } from './level.js';
import { QlMissionProgress } from './mission-progress.js';
import { QlMissions } from './missions.js';
import { QlPoints } from './points.js';
import { QlQuiz } from './quiz.js';
import { QlRecognize } from './recognize.js';
import { QlStreak } from './streak.js';
import { QlTrophyCase } from './trophy-case.js';

export { QuestlineElement, QuestlineError } from './base.js';

const elements: Record<string, CustomElementConstructor> = {
  'ql-missions': QlMissions,
  'ql-mission-progress': QlMissionProgress,
  'ql-leaderboard': QlLeaderboard,
  'ql-trophy-case': QlTrophyCase,
  'ql-points': QlPoints,
  'ql-level': QlLevel,
  'ql-at-a-glance': QlAtAGlance,
  'ql-recognize': QlRecognize,
  'ql-quiz': QlQuiz,
  'ql-award-balance': QlAwardBalance,
  'ql-streak': QlStreak,
  'ql-badge-celebration': QlBadgeCelebration,
};

for (const [name, element] of Object.entries(elements)) {
  if (customElements.get(name) === undefined) customElements.define(name, element);
}
