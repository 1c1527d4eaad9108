// How the program model maps to the XML backup format (SPEC §13, docs/backup-format.md): one
// declarative table, read by both the writer and the reader in ./xml.ts, and by xmlPath() to name
// the element and attribute behind a validation error.

export type Scalar = 'string' | 'number' | 'boolean';

export interface ElementSpec {
  element: string;
  /** Model keys written as attributes, in this order. */
  attributes: Array<[key: string, type: Scalar]>;
  children?: ChildSpec[];
}

export type ChildSpec =
  /** An optional object, as one child element. */
  | { kind: 'object'; key: string; spec: ElementSpec }
  /** An array of objects, as repeated child elements (inside `wrapper` when given). */
  | { kind: 'list'; key: string; wrapper?: string; spec: ElementSpec }
  /** An array of strings, as repeated `<element attribute="…"/>`. */
  | { kind: 'values'; key: string; element: string; attribute: string };

/** The attributes of an element open between two dates in its own time zone (a quiz, an exchange). */
const DATED_ATTRIBUTES: ElementSpec['attributes'] = [
  ['id', 'string'],
  ['name', 'string'],
  ['description', 'string'],
  ['startDate', 'string'],
  ['endDate', 'string'],
  ['timezone', 'string'],
];

/** `<Points category amount/>`: points of a category, in every `<Rewards>`. */
const pointsChild: ChildSpec = {
  kind: 'list',
  key: 'points',
  spec: {
    element: 'Points',
    attributes: [
      ['category', 'string'],
      ['amount', 'number'],
    ],
  },
};

/** `<Rewards badge>` with `<Points category amount/>` children: a streak milestone's or a leaderboard prize's. */
const rewardsChild: ChildSpec = {
  kind: 'object',
  key: 'rewards',
  spec: {
    element: 'Rewards',
    attributes: [['badge', 'string']],
    children: [pointsChild],
  },
};

const missionSpec: ElementSpec = {
  element: 'Mission',
  attributes: [
    ['id', 'string'],
    ['name', 'string'],
    ['description', 'string'],
    ['iconUrl', 'string'],
    ['startDate', 'string'],
    ['endDate', 'string'],
    ['featuredStartDate', 'string'],
    ['featuredEndDate', 'string'],
    ['timezone', 'string'],
    ['hidden', 'string'],
    ['party', 'string'],
    ['ruleMatch', 'string'],
    ['importance', 'number'],
    ['supply', 'number'],
  ],
  children: [
    {
      kind: 'object',
      key: 'prerequisites',
      spec: {
        element: 'Prerequisites',
        attributes: [['minLevel', 'string']],
        children: [
          { kind: 'values', key: 'groups', element: 'Group', attribute: 'id' },
          { kind: 'values', key: 'missions', element: 'Mission', attribute: 'id' },
          { kind: 'values', key: 'excludedGroups', element: 'ExcludedGroup', attribute: 'id' },
        ],
      },
    },
    {
      kind: 'list',
      key: 'rules',
      wrapper: 'Rules',
      spec: {
        element: 'Rule',
        attributes: [
          ['id', 'string'],
          ['action', 'string'],
          ['type', 'string'],
          ['goal', 'number'],
        ],
        children: [
          {
            kind: 'list',
            key: 'metadata',
            spec: {
              element: 'Metadata',
              attributes: [
                ['name', 'string'],
                ['value', 'string'],
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'object',
      key: 'rewards',
      spec: {
        element: 'Rewards',
        attributes: [
          ['multiplier', 'number'],
          ['badge', 'string'],
        ],
        children: [pointsChild],
      },
    },
    {
      kind: 'object',
      key: 'repeatableWindow',
      spec: {
        element: 'RepeatableWindow',
        attributes: [
          ['period', 'string'],
          ['maxPerPeriod', 'number'],
          ['timezone', 'string'],
        ],
      },
    },
  ],
};

const groupSelection = (key: string, element: string): ChildSpec => ({
  kind: 'object',
  key,
  spec: { element, attributes: [], children: [{ kind: 'values', key: 'groups', element: 'Group', attribute: 'id' }] },
});

/** <SiteConfiguration>: its attributes are the site settings (`site`), its children the rest of the program. */
export const siteConfigurationSpec: ElementSpec & { attributesKey: 'site' } = {
  element: 'SiteConfiguration',
  attributesKey: 'site',
  attributes: [
    ['name', 'string'],
    ['userlinkUrl', 'string'],
    ['achievementCallbackUrl', 'string'],
    ['levelType', 'string'],
    ['whitelistDisabled', 'boolean'],
    ['authenticationDisabled', 'boolean'],
    ['userFilterPrefix', 'string'],
    ['catalogBuyBackPercent', 'number'],
    ['ownedItemFeedDescription', 'string'],
    ['giftItemFeedDescription', 'string'],
    ['giftNotifyUrl', 'string'],
    ['itemPurchaseNotifyUrl', 'string'],
    ['subdomain', 'string'],
    ['enforceSubdomain', 'boolean'],
    ['version', 'string'],
    ['timezone', 'string'],
  ],
  children: [
    { kind: 'values', key: 'site.allowedOrigins', element: 'AllowedOrigin', attribute: 'url' },
    {
      kind: 'list',
      key: 'pointCategories',
      wrapper: 'PointCategories',
      spec: {
        element: 'PointCategory',
        attributes: [
          ['name', 'string'],
          ['isDefault', 'boolean'],
          ['dailyLimit', 'number'],
          ['yearlyLimit', 'number'],
        ],
        children: [
          {
            kind: 'object',
            key: 'expiry',
            spec: {
              element: 'Expiry',
              attributes: [
                ['afterDays', 'number'],
                ['date', 'string'],
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'list',
      key: 'actions',
      wrapper: 'Actions',
      spec: {
        element: 'Action',
        attributes: [
          ['name', 'string'],
          ['description', 'string'],
          ['suppressRepeats', 'boolean'],
          ['clientLoggable', 'boolean'],
        ],
        children: [
          {
            kind: 'object',
            key: 'rateLimit',
            spec: {
              element: 'RateLimit',
              attributes: [
                ['max', 'number'],
                ['period', 'string'],
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'list',
      key: 'badges',
      wrapper: 'Badges',
      spec: {
        element: 'Badge',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['description', 'string'],
          ['iconUrl', 'string'],
        ],
      },
    },
    {
      kind: 'list',
      key: 'levels',
      wrapper: 'Levels',
      spec: {
        element: 'Level',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['description', 'string'],
          ['iconUrl', 'string'],
          ['threshold', 'number'],
        ],
      },
    },
    {
      kind: 'list',
      key: 'groups',
      wrapper: 'Groups',
      spec: {
        element: 'Group',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['type', 'string'],
        ],
      },
    },
    { kind: 'list', key: 'missions', wrapper: 'Missions', spec: missionSpec },
    {
      kind: 'list',
      key: 'leaderboards',
      wrapper: 'Leaderboards',
      spec: {
        element: 'Leaderboard',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['period', 'string'],
          ['party', 'string'],
          ['groupFilter', 'string'],
          ['size', 'number'],
          ['primary', 'boolean'],
          ['end', 'string'],
        ],
        children: [
          {
            kind: 'object',
            key: 'metric',
            spec: {
              element: 'Metric',
              attributes: [
                ['type', 'string'],
                ['category', 'string'],
                ['action', 'string'],
              ],
            },
          },
          { kind: 'list', key: 'prizes', wrapper: 'Prizes', spec: { element: 'Prize', attributes: [['ranks', 'string']], children: [rewardsChild] } },
        ],
      },
    },
    {
      kind: 'list',
      key: 'layouts',
      wrapper: 'Layouts',
      spec: {
        element: 'Layout',
        attributes: [
          ['uuid', 'string'],
          ['name', 'string'],
        ],
        children: [{ kind: 'values', key: 'leaderboards', element: 'Leaderboard', attribute: 'id' }],
      },
    },
    {
      kind: 'list',
      key: 'quizzes',
      wrapper: 'Quizzes',
      spec: {
        element: 'Quiz',
        attributes: [...DATED_ATTRIBUTES, ['passingPercent', 'number'], ['maxAttempts', 'number']],
        children: [
          {
            kind: 'list',
            key: 'questions',
            spec: {
              element: 'Question',
              attributes: [
                ['id', 'string'],
                ['type', 'string'],
                ['text', 'string'],
              ],
              children: [
                {
                  kind: 'list',
                  key: 'choices',
                  spec: {
                    element: 'Choice',
                    attributes: [
                      ['id', 'string'],
                      ['correct', 'boolean'],
                      ['text', 'string'],
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'list',
      key: 'exchanges',
      wrapper: 'Exchanges',
      spec: {
        element: 'Exchange',
        attributes: [...DATED_ATTRIBUTES, ['pointCategory', 'string'], ['minPoints', 'number'], ['maxPoints', 'number'], ['maxRecipients', 'number']],
        children: [
          groupSelection('givers', 'Givers'),
          groupSelection('recipients', 'Recipients'),
          {
            kind: 'object',
            key: 'budget',
            spec: {
              element: 'Budget',
              attributes: [
                ['amount', 'number'],
                ['period', 'string'],
              ],
            },
          },
          {
            kind: 'list',
            key: 'categories',
            spec: {
              element: 'Category',
              attributes: [
                ['id', 'string'],
                ['name', 'string'],
                ['iconUrl', 'string'],
              ],
            },
          },
        ],
      },
    },
    {
      kind: 'list',
      key: 'streaks',
      wrapper: 'Streaks',
      spec: {
        element: 'Streak',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['description', 'string'],
          ['iconUrl', 'string'],
          ['action', 'string'],
          ['mission', 'string'],
          ['period', 'string'],
        ],
        children: [
          {
            kind: 'object',
            key: 'freezes',
            spec: {
              element: 'Freezes',
              attributes: [
                ['max', 'number'],
                ['initial', 'number'],
                ['earnEvery', 'number'],
              ],
            },
          },
          { kind: 'list', key: 'milestones', spec: { element: 'Milestone', attributes: [['length', 'number']], children: [rewardsChild] } },
        ],
      },
    },
    {
      kind: 'list',
      key: 'boosts',
      wrapper: 'Boosts',
      spec: {
        element: 'Boost',
        attributes: [
          ['id', 'string'],
          ['name', 'string'],
          ['multiplier', 'number'],
          ['start', 'string'],
          ['end', 'string'],
          ['timezone', 'string'],
        ],
        children: [
          { kind: 'values', key: 'actions', element: 'Action', attribute: 'name' },
          { kind: 'values', key: 'missions', element: 'Mission', attribute: 'id' },
          { kind: 'values', key: 'groups', element: 'Group', attribute: 'id' },
        ],
      },
    },
    {
      kind: 'object',
      key: 'awardSettings',
      spec: {
        element: 'AwardSettings',
        attributes: [
          ['pointCategory', 'string'],
          ['currency', 'string'],
          ['conversionRate', 'number'],
          ['verificationRequired', 'boolean'],
          ['holdDays', 'number'],
        ],
        children: [
          {
            kind: 'list',
            key: 'marketplaces',
            spec: {
              element: 'Marketplace',
              attributes: [
                ['type', 'string'],
                ['urlTemplate', 'string'],
              ],
            },
          },
          { kind: 'values', key: 'allowedCountries', element: 'AllowedCountry', attribute: 'code' },
        ],
      },
    },
  ],
};

/** The XML location of a model path ('missions.1.rules.0.goal' → 'SiteConfiguration/Missions/Mission[2]/Rules/Rule[1]/@goal'). */
export function xmlPath(modelPath: string): string {
  if (modelPath === '(document)') return 'SiteConfiguration';
  const segments = modelPath.split('.');
  const parts: string[] = ['SiteConfiguration'];
  let spec: ElementSpec = siteConfigurationSpec;
  let i = 0;
  if (segments[0] === 'site') {
    if (segments[1] === 'allowedOrigins')
      return segments[2] !== undefined ? `SiteConfiguration/AllowedOrigin[${Number(segments[2]) + 1}]/@url` : 'SiteConfiguration/AllowedOrigin';
    return segments[1] !== undefined ? `SiteConfiguration/@${segments[1]}` : 'SiteConfiguration';
  }
  while (i < segments.length) {
    const key = segments[i] as string;
    const child = spec.children?.find((c) => c.key === key);
    if (child === undefined) {
      parts.push(spec.attributes.some(([name]) => name === key) ? `@${key}` : key);
      i += 1;
      continue;
    }
    const index = segments[i + 1] !== undefined && /^\d+$/.test(segments[i + 1] as string) ? Number(segments[i + 1]) : undefined;
    if (child.kind === 'object') {
      parts.push(child.spec.element);
      spec = child.spec;
      i += 1;
    } else if (child.kind === 'list') {
      if (child.wrapper) parts.push(child.wrapper);
      // An error about the whole list names the wrapper (or the repeated element when there is none).
      if (index !== undefined) parts.push(`${child.spec.element}[${index + 1}]`);
      else if (!child.wrapper) parts.push(child.spec.element);
      spec = child.spec;
      i += index !== undefined ? 2 : 1;
    } else {
      parts.push(index !== undefined ? `${child.element}[${index + 1}]/@${child.attribute}` : child.element);
      i += index !== undefined ? 2 : 1;
    }
  }
  return parts.join('/');
}
