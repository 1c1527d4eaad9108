// Versioned migrations, in order. Each runs unchanged on SQLite and PostgreSQL.
import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation.js';
import * as program from './0002_program.js';
import * as actions from './0003_actions.js';
import * as progressArchive from './0004_progress_archive.js';
import * as dailyActiveUsers from './0005_daily_active_users.js';
import * as userProfiles from './0006_user_profiles.js';
import * as partyVersion from './0007_party_version.js';
import * as leaderboardScores from './0008_leaderboard_scores.js';
import * as webhooks from './0009_webhooks.js';
import * as reversals from './0010_reversals.js';
import * as recognitions from './0011_recognitions.js';
import * as quizzes from './0012_quizzes.js';
import * as awards from './0013_awards.js';
import * as programVersions from './0014_program_versions.js';
import * as analytics from './0015_analytics.js';
import * as streaks from './0016_streaks.js';
import * as pointExpiry from './0017_point_expiry.js';
import * as leaderboardResults from './0018_leaderboard_results.js';
import * as expirySweepIndex from './0019_expiry_sweep_index.js';

const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_program': program,
  '0003_actions': actions,
  '0004_progress_archive': progressArchive,
  '0005_daily_active_users': dailyActiveUsers,
  '0006_user_profiles': userProfiles,
  '0007_party_version': partyVersion,
  '0008_leaderboard_scores': leaderboardScores,
  '0009_webhooks': webhooks,
  '0010_reversals': reversals,
  '0011_recognitions': recognitions,
  '0012_quizzes': quizzes,
  '0013_awards': awards,
  '0014_program_versions': programVersions,
  '0015_analytics': analytics,
  '0016_streaks': streaks,
  '0017_point_expiry': pointExpiry,
  '0018_leaderboard_results': leaderboardResults,
  '0019_expiry_sweep_index': expirySweepIndex,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
