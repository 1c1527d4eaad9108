// Table types for Kysely. Instants are integer milliseconds since the Unix epoch (bigint on
// PostgreSQL, read back as numbers); every table carries site_id (SPEC §1: distributable by site).
export interface SitesTable {
  site_id: string;
  name: string;
  timezone: string;
  created_at: number;
}

export type ClientRole = 'admin' | 'app';

export interface ClientsTable {
  site_id: string;
  client_id: string;
  role: ClientRole;
  /** scrypt hash of the secret, in the self-describing form written by src/modules/sites/client-secrets.ts. */
  secret_hash: string;
  /** Bumped on rotation; tokens carry the version they were issued under. */
  secret_version: number;
  /** Per-client request rate (tokens per second), null for the configured default. */
  rate_limit_rps: number | null;
  rate_limit_burst: number | null;
  created_at: number;
  updated_at: number;
  /** Soft delete keeps the row so every node sees the revocation on its next refresh. */
  deleted_at: number | null;
}

/** Instance-wide settings live under site_id '' (the generated token secret, for one). */
export interface InstanceSettingsTable {
  site_id: string;
  name: string;
  value: string;
}

export interface SiteProgramsTable {
  site_id: string;
  version: number;
  /** The canonical program as JSON, without the webhook secret. */
  document: string;
  webhook_secret: string | null;
  /** A replaced secret keeps signing beside the new one until `previous_webhook_secret_until` (migration 0009). */
  previous_webhook_secret: string | null;
  previous_webhook_secret_until: number | null;
  updated_at: number;
}

/** One document a program change wrote (migration 0014): the site's program history. */
export interface ProgramVersionsTable {
  site_id: string;
  version: number;
  /** The program as JSON, as site_programs held it at that version (never the webhook secret). */
  document: string;
  /** The admin client's id, `cli` for the questline command, null for Questline itself. */
  changed_by: string | null;
  changed_at: number;
  /** What changed against the version kept before it (JSON, src/modules/program/version-diff.ts); null for the first. */
  summary: string | null;
  restored_from: number | null;
}

export interface BackupsTable {
  site_id: string;
  backup_id: string;
  name: string;
  xml: string;
  created_at: number;
}

export interface GroupMembersTable {
  site_id: string;
  group_id: string;
  user_id: string;
  joined_at: number;
}

export type PartyType = 'user' | 'group';

export interface PartiesTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  created_at: number;
  last_recorded: string | null;
  level_id: string | null;
  sequence: number;
  /** Raised by every transaction that changes the party's state (migration 0007). */
  version: number;
}

export interface ActionEventsTable {
  site_id: string;
  event_id: string;
  party_type: PartyType;
  party_id: string;
  action: string;
  value: number;
  metadata: string;
  occurred_at: number;
  received_at: number;
  recorded: number;
  reason: string | null;
  outcome: string;
  /** When the event was reversed, and what the reversal did (JSON), for idempotent repeats (migration 0010). */
  reversed_at: number | null;
  reversal: string | null;
  /** JSON array of the groups whose missions the event advanced or completed (null: none). */
  groups: string | null;
}

export interface MissionProgressTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  mission_id: string;
  rule_id: string;
  window_start: number;
  current: number;
  updated_at: number;
}

export interface MissionCompletionsTable {
  site_id: string;
  completion_id: string;
  party_type: PartyType;
  party_id: string;
  mission_id: string;
  window_start: number;
  event_id: string;
  completed_at: number;
  recorded_at: number;
  removed_at: number | null;
  /** The badge the completion awarded (migration 0010). */
  badge_id: string | null;
}

export interface MissionSupplyTable {
  site_id: string;
  mission_id: string;
  used: number;
}

export interface PointsLedgerTable {
  site_id: string;
  entry_id: string;
  party_type: PartyType;
  party_id: string;
  category: string;
  requested: number;
  credited: number;
  /**
   * `reversal`: a completion's credit taken back (cause_id: the completion); `recognition`: a gift
   * received (cause_id: the recognition); `expiry`: points expired (cause_id: the instant, ISO,
   * before which they were earned; occurred_at: when they expired); `streak`: a streak milestone's
   * reward (cause_id: `streakId:runStart:length`); `prize`: a leaderboard prize (cause_id: the closing).
   */
  cause: 'mission' | 'adjustment' | 'reversal' | 'recognition' | 'expiry' | 'streak' | 'prize';
  cause_id: string;
  event_id: string | null;
  reason: string | null;
  occurred_at: number;
  recorded_at: number;
}

export interface PointBalancesTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  category: string;
  balance: number;
  lifetime: number;
}

/** Per party and expiring category: every point earned before `earned_before` is expired or spent. */
export interface PointExpirySweepsTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  category: string;
  earned_before: number;
}

export interface PointEarningsTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  category: string;
  period: 'day' | 'year';
  period_start: number;
  earned: number;
}

export interface TrophiesTable {
  site_id: string;
  party_type: PartyType;
  party_id: string;
  badge_id: string;
  earned_count: number;
  first_earned_at: number;
  last_earned_at: number;
}

export interface LevelChangesTable {
  site_id: string;
  change_id: string;
  party_id: string;
  from_level: string | null;
  to_level: string | null;
  direction: 'up' | 'down';
  event_id: string | null;
  changed_at: number;
}

export interface OutboxTable {
  site_id: string;
  event_id: string;
  event_type: string;
  party_type: PartyType;
  party_id: string;
  sequence: number;
  payload: string;
  occurred_at: number;
  created_at: number;
  /** When the dispatcher made its deliveries (null: not yet). */
  routed_at: number | null;
}

export interface WebhookEndpointsTable {
  site_id: string;
  endpoint_id: string;
  url: string;
  /** JSON array of event types. */
  event_types: string;
  description: string | null;
  created_at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

export interface WebhookDeliveriesTable {
  site_id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  party_type: PartyType;
  party_id: string;
  destination: string;
  status: DeliveryStatus;
  attempts: number;
  retry_from: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_attempt_at: number | null;
  last_url: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
}

export interface MissionProgressArchiveTable extends MissionProgressTable {
  archived_at: number;
  program_version: number;
}

export interface DailyActiveUsersTable {
  site_id: string;
  /** YYYY-MM-DD in the site's time zone. */
  day: string;
  user_id: string;
}

export interface UserProfilesTable {
  site_id: string;
  user_id: string;
  /** JSON object: preference name → value. */
  preferences: string;
  role: string | null;
  updated_at: number;
  /** "first last", lowercased, for name search (migration 0011); null without a name. */
  search_name: string | null;
}

export interface RecognitionsTable {
  site_id: string;
  recognition_id: string;
  exchange_id: string;
  category_id: string;
  giver_id: string;
  comment: string;
  /** The total given, charged to the giver's budget. */
  points: number;
  /** The budget window charged (0: a budget that never resets). */
  budget_window: number;
  given_at: number;
}

export interface RecognitionRecipientsTable {
  site_id: string;
  recognition_id: string;
  recipient_id: string;
  points: number;
  given_at: number;
}

export interface RecognitionBudgetsTable {
  site_id: string;
  exchange_id: string;
  giver_id: string;
  window_start: number;
  used: number;
}

export interface LeaderboardScoresTable {
  site_id: string;
  board_id: string;
  window_start: number;
  party_id: string;
  score: number;
  reached_at: number;
  version: number;
}

/** A board's first window still to close (migration 0018). */
export interface LeaderboardCursorsTable {
  site_id: string;
  board_id: string;
  next_window_start: number;
}

/** A closed window: the claim on it, and the prizes that applied (JSON). */
export interface LeaderboardClosingsTable {
  site_id: string;
  board_id: string;
  window_start: number;
  window_end: number;
  closing_id: string;
  party_type: PartyType;
  prizes: string;
  closed_at: number;
}

/** A closed window's final standing: listing position, shared rank, party, score and prize paid (JSON rewards, or null). */
export interface LeaderboardResultsTable {
  site_id: string;
  closing_id: string;
  position: number;
  rank: number;
  party_id: string;
  score: number;
  prize: string | null;
}

export interface QuizAttemptsTable {
  site_id: string;
  user_id: string;
  quiz_id: string;
  /** 1, 2, …: the user's attempts at the quiz. */
  attempt: number;
  started_at: number;
  /** Null while the attempt is open (some question still unanswered). */
  completed_at: number | null;
  total_correct: number | null;
  total_questions: number | null;
  percent_correct: number | null;
  passed: number | null;
  /** The QUIZ_COMPLETED action the completed attempt logged. */
  event_id: string | null;
}

export interface QuizResponsesTable {
  site_id: string;
  user_id: string;
  quiz_id: string;
  attempt: number;
  question_id: string;
  /** JSON array of the choice ids given, sorted. */
  choice_ids: string;
  correct: number;
  answered_at: number;
}

export interface AwardAccountsTable {
  site_id: string;
  user_id: string;
  /** ISO 3166-1 alpha-2, set by an admin; null until then. */
  country_code: string | null;
  verified: number;
  /** The sum of the account's ledger: available plus pending. */
  balance: number;
  updated_at: number;
}

export type AwardEntryKind = 'mission' | 'adjustment' | 'recognition' | 'prize' | 'reversal' | 'expiry' | 'ots' | 'purchase' | 'gift' | 'refund';

export interface AwardLedgerTable {
  site_id: string;
  entry_id: string;
  user_id: string;
  kind: AwardEntryKind;
  /** Credits are positive, debits negative. */
  amount: number;
  /** The point category of an entry mirrored from points; null for the others. */
  category: string | null;
  balance_after: number;
  reference: string;
  description: string | null;
  /** Pending until then. */
  available_at: number;
  posted_at: number;
}

export interface OtsCodesTable {
  site_id: string;
  /** SHA-256 of the normalized code, hex: the code itself is never stored. */
  code_hash: string;
  code_id: string;
  batch_id: string;
  amount: number;
  expires_at: number;
  created_at: number;
  redeemed_by: string | null;
  redeemed_at: number | null;
}

/** What a write set or a webhook delivery changed in the overview's figures (src/db/analytics-changes.ts), until a fold consumes it. */
export interface AnalyticsChangesTable {
  site_id: string;
  change_id: string;
  /** JSON: [[kind, instant, key, amount], …]. */
  changes: string;
}

export type AnalyticsSeries = 'actions' | 'users' | 'points' | 'completions' | 'levels' | 'webhooks';

/** The overview's rollup: a site's figure of one series and key on one day of analytics_sites.timezone. */
export interface AnalyticsDaysTable {
  site_id: string;
  /** YYYY-MM-DD. */
  day: string;
  series: AnalyticsSeries;
  /** The action, category, mission, level or delivery status ('' for users). */
  key: string;
  value: number;
}

export interface AnalyticsSitesTable {
  site_id: string;
  /** The zone analytics_days is in. */
  timezone: string;
  /** The first day analytics_days holds. */
  built_from: string;
  /** The first day whose daily_active_users rows are all of `timezone`. */
  users_from: string;
  built_at: number;
}

/** A site-local day a user counted for a streak: how many live actions (or mission completions) counted it (migration 0016). */
export interface StreakDaysTable {
  site_id: string;
  user_id: string;
  streak_id: string;
  day: number;
  actions: number;
}

/** A streak milestone paid, once per run (its first period) and length. */
export interface StreakMilestonesTable {
  site_id: string;
  user_id: string;
  streak_id: string;
  length: number;
  run_start: number;
  reached: number;
  event_id: string;
  badge_id: string | null;
  earned_at: number;
  paid_at: number;
}

/** A freeze used or a break announced by the sweep, once per period. */
export interface StreakNoticesTable {
  site_id: string;
  user_id: string;
  streak_id: string;
  kind: 'frozen' | 'broken';
  period: number;
  created_at: number;
}

export interface DatabaseSchema {
  sites: SitesTable;
  clients: ClientsTable;
  instance_settings: InstanceSettingsTable;
  site_programs: SiteProgramsTable;
  program_versions: ProgramVersionsTable;
  backups: BackupsTable;
  group_members: GroupMembersTable;
  parties: PartiesTable;
  action_events: ActionEventsTable;
  mission_progress: MissionProgressTable;
  mission_completions: MissionCompletionsTable;
  mission_supply: MissionSupplyTable;
  points_ledger: PointsLedgerTable;
  point_balances: PointBalancesTable;
  point_earnings: PointEarningsTable;
  point_expiry_sweeps: PointExpirySweepsTable;
  trophies: TrophiesTable;
  level_changes: LevelChangesTable;
  outbox: OutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  leaderboard_scores: LeaderboardScoresTable;
  leaderboard_cursors: LeaderboardCursorsTable;
  leaderboard_closings: LeaderboardClosingsTable;
  leaderboard_results: LeaderboardResultsTable;
  mission_progress_archive: Omit<MissionProgressArchiveTable, 'updated_at'>;
  daily_active_users: DailyActiveUsersTable;
  user_profiles: UserProfilesTable;
  recognitions: RecognitionsTable;
  recognition_recipients: RecognitionRecipientsTable;
  recognition_budgets: RecognitionBudgetsTable;
  quiz_attempts: QuizAttemptsTable;
  quiz_responses: QuizResponsesTable;
  award_accounts: AwardAccountsTable;
  award_ledger: AwardLedgerTable;
  ots_codes: OtsCodesTable;
  analytics_changes: AnalyticsChangesTable;
  analytics_days: AnalyticsDaysTable;
  analytics_sites: AnalyticsSitesTable;
  streak_days: StreakDaysTable;
  streak_milestones: StreakMilestonesTable;
  streak_notices: StreakNoticesTable;
}
