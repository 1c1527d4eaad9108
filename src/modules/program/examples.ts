// The examples the OpenAPI document shows for program bodies (PUT /admin/program, /admin/<collection>,
// site and award settings), on the schemas of ./model.ts. They are Acme Learning's, the program of
// examples/program.json: `program` is a small complete one (two actions, a category, a badge, a
// level, one mission), and each entity example is one Acme adds to it next
// (test/modules/program/examples.test.ts loads the program and adds them all, as a site would).

const site = {
  name: 'Acme Learning',
  timezone: 'America/New_York',
  levelType: 'points',
  achievementCallbackUrl: 'https://hooks.acme.example/questline',
  allowedOrigins: ['https://learn.acme.example'],
  userlinkUrl: 'https://acme.example/people/{userId}',
};

const readArticle = { name: 'read_article', description: 'Read an article to the end', clientLoggable: true };
const watchVideo = { name: 'watch_video', description: 'Watched a training video', rateLimit: { max: 10, period: 'day' }, clientLoggable: true };

const firstRead = {
  id: 'm-first-read',
  name: 'First read',
  description: 'Read one article',
  iconUrl: 'https://cdn.acme.example/missions/read.png',
  startDate: '2026-01-01T00:00:00',
  endDate: '2027-12-31T23:59:59',
  timezone: 'America/New_York',
  rules: [{ id: 'r-1', action: 'read_article', type: 'count', goal: 1 }],
  rewards: { points: [{ category: 'Points', amount: 10 }], badge: 'b-reader' },
};

export const programExamples = {
  site,
  program: {
    site,
    pointCategories: [{ name: 'Points', isDefault: true }],
    actions: [readArticle, watchVideo],
    badges: [{ id: 'b-reader', name: 'Reader', description: 'Read your first article', iconUrl: 'https://cdn.acme.example/badges/reader.png' }],
    levels: [{ id: 'l-1', name: 'Rookie', threshold: 0 }],
    missions: [firstRead],
  },
  action: { name: 'share', description: 'Shared an article or a video', suppressRepeats: true, clientLoggable: true },
  pointCategory: { name: 'Coins', isDefault: false, dailyLimit: 200, yearlyLimit: 20_000, expiry: { afterDays: 365 } },
  mission: {
    id: 'm-chef',
    name: 'Little chef',
    description: 'Watch two cooking videos and read a recipe',
    startDate: '2026-01-01T00:00:00',
    endDate: '2027-12-31T23:59:59',
    timezone: 'Europe/Paris',
    hidden: 'hidden_until_unlocked',
    prerequisites: { missions: ['m-first-read'] },
    ruleMatch: 'all',
    rules: [
      { id: 'r-1', action: 'watch_video', type: 'count', goal: 2, metadata: [{ name: 'genre', value: 'cooking' }] },
      { id: 'r-2', action: 'read_article', type: 'count', goal: 1, metadata: [{ name: 'topic', value: 'recipe' }] },
    ],
    rewards: { points: [{ category: 'Points', amount: 50 }], badge: 'b-chef' },
    importance: 3,
  },
  level: { id: 'l-2', name: 'Regular', description: 'Earned 100 points', threshold: 100 },
  badge: { id: 'b-chef', name: 'Chef', description: 'Watched a cooking video', iconUrl: 'https://cdn.acme.example/badges/chef.png' },
  group: { id: 'g-sales', name: 'Sales', type: 'department' },
  leaderboard: {
    id: 'lb-weekly',
    name: 'This week',
    metric: { type: 'points', category: 'Points' },
    period: 'week',
    party: 'user',
    size: 50,
    prizes: [
      { ranks: '1', rewards: { points: [{ category: 'Points', amount: 100 }] } },
      { ranks: '2-5', rewards: { points: [{ category: 'Points', amount: 25 }] } },
    ],
  },
  layout: { uuid: '5d7c2f0e-6a7b-4d0e-9d59-1c1f6a1b2c3d', name: 'Home', leaderboards: ['lb-weekly'] },
  quiz: {
    id: 'q-safety',
    name: 'Safety basics',
    description: 'Five minutes on workplace safety',
    startDate: '2026-01-01T00:00:00',
    endDate: '2027-12-31T23:59:59',
    timezone: 'America/New_York',
    passingPercent: 60,
    maxAttempts: 3,
    questions: [
      {
        id: 'qq-1',
        text: 'Where is the nearest fire exit marked?',
        type: 'single',
        choices: [
          { id: 'a', text: 'Green signs', correct: true },
          { id: 'b', text: 'Nowhere', correct: false },
        ],
      },
      {
        id: 'qq-2',
        text: 'Which are safe to lift alone?',
        type: 'multiple',
        choices: [
          { id: 'a', text: 'A 5 kg box', correct: true },
          { id: 'b', text: 'A laptop', correct: true },
          { id: 'c', text: 'A 90 kg crate', correct: false },
        ],
      },
    ],
  },
  exchange: {
    id: 'x-kudos',
    name: 'Kudos',
    description: 'Thank a colleague',
    timezone: 'America/New_York',
    givers: { groups: [] },
    recipients: { groups: [] },
    pointCategory: 'Points',
    budget: { amount: 100, period: 'month' },
    minPoints: 1,
    maxPoints: 50,
    maxRecipients: 5,
    categories: [
      { id: 'c-teamwork', name: 'Teamwork' },
      { id: 'c-innovation', name: 'Innovation' },
    ],
  },
  streak: {
    id: 's-read',
    name: 'Daily reading',
    description: 'Read an article every day',
    action: 'read_article',
    period: 'day',
    freezes: { max: 2, initial: 1, earnEvery: 7 },
    milestones: [
      { length: 7, rewards: { points: [{ category: 'Points', amount: 50 }] } },
      { length: 30, rewards: { points: [{ category: 'Points', amount: 300 }], badge: 'b-reader' } },
    ],
  },
  boost: {
    id: 'bo-reading-week',
    name: 'Reading week: double points',
    multiplier: 2,
    start: '2026-12-07T00:00:00',
    end: '2026-12-13T23:59:59',
    timezone: 'America/New_York',
    actions: ['read_article'],
  },
  awardSettings: {
    pointCategory: 'Points',
    currency: 'USD',
    conversionRate: 0.01,
    marketplaces: [{ type: 'shop', urlTemplate: 'https://market.acme.example/sso?token={token}' }],
    allowedCountries: ['US', 'CA', 'GB'],
    verificationRequired: true,
    holdDays: 14,
  },
};
