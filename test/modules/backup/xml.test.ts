// The XML backup format without an app (SPEC §13): the demo document round-trips byte for byte,
// text survives escaping, secrets are never written, legacy documents are read, unsafe or
// misshapen documents are refused with the right code, and the XML spec covers the whole model.
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { programToXml, xmlToProgram, MAX_XML_BYTES } from '../../../src/modules/backup/xml.js';
import { XML_LIMITS } from '../../../src/modules/backup/xml-limits.js';
import { siteConfigurationSpec, xmlPath, type ElementSpec } from '../../../src/modules/backup/xml-spec.js';
import { Program, type ProgramDocument } from '../../../src/modules/program/model.js';
import { validateProgram } from '../../../src/modules/program/validate.js';

const DEMO_XML = readFileSync(new URL('../../../examples/demo-program.xml', import.meta.url), 'utf8');

/** The AppError `fn` throws (the test fails when it throws anything else or nothing). */
function appErrorOf(fn: () => unknown): AppError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  return thrown as AppError;
}

/** A minimal document: one category, one action, and `missions` (Mission elements) inside <Missions>. */
const doc = (missions: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<Nitro method="admin.backupSiteConfig" server="questline" res="ok">
  <SiteConfiguration name="Tiny">
    <PointCategories><PointCategory name="Points" isDefault="true"/></PointCategories>
    <Actions><Action name="read"/></Actions>
    <Missions>${missions}</Missions>${extra}
  </SiteConfiguration>
</Nitro>
`;
const mission = (attributes = '', children = '') =>
  `<Mission id="m1" name="M" ${attributes}><Rules><Rule id="r1" action="read" goal="1"/></Rules>${children}</Mission>`;

describe('the demo program', () => {
  it('parses, validates and writes back byte-identically', () => {
    const program = validateProgram(xmlToProgram(DEMO_XML));
    expect(program.missions.map((m) => m.id)).toEqual(expect.arrayContaining(['m-first-read', 'm-chef', 'm-scholar', 'm-secret']));
    expect(program.site).toMatchObject({
      name: 'Questline demo',
      timezone: 'America/Los_Angeles',
      whitelistDisabled: true,
      catalogBuyBackPercent: 0,
      userFilterPrefix: '',
    });
    expect(programToXml(program)).toBe(DEMO_XML);
  });

  it('writes the same program the same way every time', () => {
    const program = validateProgram(xmlToProgram(DEMO_XML));
    expect(programToXml(structuredClone(program))).toBe(programToXml(program));
  });
});

describe('text in attributes', () => {
  const TRICKY = 'Line one\nline two\ttabbed "double" \'single\' & <tag> a > b \r café ñ 日本語 🎉🚀 &amp; &#10;';

  function trickyProgram(text: string): ProgramDocument {
    return validateProgram({
      site: { name: text, allowedOrigins: ['https://a.example/?x=1&y=2'], ownedItemFeedDescription: text },
      pointCategories: [{ name: 'Points', isDefault: true }],
      actions: [{ name: 'read', description: text }],
      badges: [{ id: 'b1', name: text, description: text }],
      missions: [{ id: 'm1', name: text, description: text, rules: [{ id: 'r1', action: 'read', goal: 0.5, metadata: [{ name: text, value: text }] }] }],
      quizzes: [
        {
          id: 'q1',
          name: 'Q',
          questions: [
            {
              id: 'qq1',
              text,
              choices: [
                { id: 'a', text, correct: true },
                { id: 'b', text: 'no' },
              ],
            },
          ],
        },
      ],
    });
  }

  it('round-trips newlines, tabs, quotes, markup characters, non-ASCII and emoji exactly', () => {
    const program = trickyProgram(TRICKY);
    const xml = programToXml(program);
    expect(xml).toContain('&#10;');
    expect(xml).toContain('&#9;');
    expect(xml).toContain('&amp;amp;');
    // Every attribute stays on its element's line: a raw newline inside a value would break that.
    expect(xml.split('\n').every((line) => line === '' || /^\s*<.*>$/.test(line))).toBe(true);
    const back = validateProgram(xmlToProgram(xml));
    expect(back).toEqual(program);
    expect(back.missions[0]?.rules[0]?.metadata[0]?.value).toBe(TRICKY);
    expect(programToXml(back)).toBe(xml);
  });

  it('keeps leading and trailing whitespace of values', () => {
    const program = trickyProgram('  padded on both sides  ');
    const back = validateProgram(xmlToProgram(programToXml(program)));
    expect(back.site.name).toBe('  padded on both sides  ');
    expect(back.missions[0]?.description).toBe('  padded on both sides  ');
    expect(programToXml(back)).toBe(programToXml(program));
  });
});

describe('secrets and legacy documents', () => {
  it('never writes the webhook secret, and leaves the program it was given alone', () => {
    const program = validateProgram({ site: { name: 'S', webhookSecret: 'whsec_do_not_leak_9876' }, pointCategories: [{ name: 'Points', isDefault: true }] });
    const xml = programToXml(program);
    expect(xml).not.toContain('webhookSecret');
    expect(xml).not.toContain('whsec_do_not_leak_9876');
    expect(program.site.webhookSecret).toBe('whsec_do_not_leak_9876');
    expect(xmlToProgram(xml)).not.toHaveProperty('site.webhookSecret');
  });

  it('moves a legacy RepeatableWindow time zone to a mission that has none', () => {
    const parsed = xmlToProgram(doc(mission('', '<RepeatableWindow timezone="Europe/Paris" period="day" maxPerPeriod="1"/>')));
    const program = validateProgram(parsed);
    expect(program.missions[0]?.timezone).toBe('Europe/Paris');
    expect(program.missions[0]?.repeatableWindow).toEqual({ period: 'day', maxPerPeriod: 1 });
    const xml = programToXml(program);
    expect(xml).toContain('<Mission id="m1" name="M" timezone="Europe/Paris"');
    expect(xml).toContain('<RepeatableWindow period="day" maxPerPeriod="1"/>');
  });

  it("keeps a mission's own time zone over a legacy one", () => {
    const program = validateProgram(xmlToProgram(doc(mission('timezone="Asia/Tokyo"', '<RepeatableWindow timezone="Europe/Paris" period="week"/>'))));
    expect(program.missions[0]?.timezone).toBe('Asia/Tokyo');
    expect(program.missions[0]?.repeatableWindow).toEqual({ period: 'week' });
  });
});

describe('refused documents', () => {
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0] as string;
  const xxe = `<?xml version="1.0"?>
<!DOCTYPE Nitro [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Nitro><SiteConfiguration name="&xxe;"/></Nitro>`;
  const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
${Array.from({ length: 9 }, (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('\n')}
]>
<Nitro><SiteConfiguration name="&lol9;"/></Nitro>`;
  const nested = (depth: number) =>
    `<Nitro><SiteConfiguration name="x">${'<Deep>'.repeat(depth - 2)}${'</Deep>'.repeat(depth - 2)}</SiteConfiguration></Nitro>`;

  it.each([
    ['a DOCTYPE', '<!DOCTYPE Nitro>\n<Nitro><SiteConfiguration name="x"/></Nitro>'],
    ['a lower-case doctype', '<!doctype Nitro><Nitro><SiteConfiguration name="x"/></Nitro>'],
    ['an entity declaration', '<Nitro><!ENTITY x "y"><SiteConfiguration name="x"/></Nitro>'],
    ['a billion-laughs document', laughs],
    ['an external entity (XXE)', xxe],
    ['nesting 33 deep', nested(33)],
    ['nesting 200 deep', nested(200)],
  ])('refuses %s with xml_forbidden', (_name, xml) => {
    const error = appErrorOf(() => xmlToProgram(xml));
    expect(error.code).toBe('xml_forbidden');
    expect(error.status).toBe(400);
    const everything = `${error.message} ${JSON.stringify(error.options)}`;
    expect(everything).not.toContain(passwd);
    expect(everything).not.toContain('lollollol');
  });

  it('allows nesting exactly 32 deep (and then reports the unknown element)', () => {
    const error = appErrorOf(() => xmlToProgram(nested(32)));
    expect(error.code).toBe('validation_failed');
    expect(error.options.errors).toEqual([{ path: 'SiteConfiguration/Deep', message: 'unknown element' }]);
  });

  it.each([
    ['an unclosed tag', '<Nitro>\n  <SiteConfiguration name="x">\n</Nitro>', /line \d+, column \d+/],
    ['a mismatched tag', '<Nitro>\n  <SiteConfiguration name="x">\n  </Configuration>\n</Nitro>', /line 3, column \d+/],
    ['a repeated attribute', '<Nitro>\n<SiteConfiguration name="x" name="y"/></Nitro>', /line 2, column \d+/],
    ['text that is not XML', 'name=Acme', /line 1, column 1\b/],
    ['an empty document', '', /line \d+, column \d+/],
    ['an out-of-range character reference', '<Nitro>\n<SiteConfiguration name="&#x110000;"/>\n</Nitro>', /.+/],
  ])('refuses %s with malformed_xml', (_name, xml, where) => {
    const error = appErrorOf(() => xmlToProgram(xml));
    expect(error.code).toBe('malformed_xml');
    expect(error.message).toMatch(where);
  });

  it.each([
    ['another root element', '<Backup><SiteConfiguration name="x"/></Backup>'],
    ['a namespaced root', '<q:Nitro xmlns:q="urn:x"><SiteConfiguration name="x"/></q:Nitro>'],
    ['two SiteConfiguration elements', '<Nitro><SiteConfiguration name="x"/><SiteConfiguration name="y"/></Nitro>'],
    ['no SiteConfiguration', '<Nitro method="admin.backupSiteConfig"/>'],
  ])('refuses %s with malformed_xml', (_name, xml) => {
    expect(appErrorOf(() => xmlToProgram(xml)).code).toBe('malformed_xml');
  });

  it.each([
    [
      'an unknown mission attribute',
      DEMO_XML.replace('<Mission id="m-first-read"', '<Mission colour="red" id="m-first-read"'),
      'SiteConfiguration/Missions/Mission[1]/@colour',
      'unknown attribute',
    ],
    [
      'an unknown rule attribute',
      doc(`${mission()}<Mission id="m2" name="N"><Rules><Rule id="r" action="read" goal="1" weight="2"/></Rules></Mission>`),
      'SiteConfiguration/Missions/Mission[2]/Rules/Rule[1]/@weight',
      'unknown attribute',
    ],
    ['an unknown element in a mission', doc(mission('', '<Sparkles/>')), 'SiteConfiguration/Missions/Mission[1]/Sparkles', 'unknown element'],
    ['an unknown element in a wrapper', doc(mission()).replace('<Missions>', '<Missions><Quest/>'), 'SiteConfiguration/Missions/Quest', 'unknown element'],
    ['an unknown top-level element', doc(mission(), '<Secrets/>'), 'SiteConfiguration/Secrets', 'unknown element'],
    ['a repeated single element', doc(mission('', '<Rewards/><Rewards/>')), 'SiteConfiguration/Missions/Mission[1]/Rewards', 'appears more than once'],
    [
      'a value element without its attribute',
      doc(mission('', '<Prerequisites><Group/></Prerequisites>')),
      'SiteConfiguration/Missions/Mission[1]/Prerequisites/Group[1]/@id',
      'is required',
    ],
  ])('refuses %s with validation_failed at its XML path', (_name, xml, path, message) => {
    const error = appErrorOf(() => xmlToProgram(xml));
    expect(error.code).toBe('validation_failed');
    expect(error.options.errors).toContainEqual({ path, message });
  });

  it('refuses documents over 10 MB (counted in bytes) with payload_too_large', () => {
    const padded = DEMO_XML.replace('</Nitro>', `<!--${'x'.repeat(MAX_XML_BYTES)}--></Nitro>`);
    expect(appErrorOf(() => xmlToProgram(padded)).code).toBe('payload_too_large');
    // Fewer than 10 M characters, more than 10 MB of UTF-8.
    const wide = DEMO_XML.replace('</Nitro>', `<!--${'é'.repeat(MAX_XML_BYTES / 2 + 1)}--></Nitro>`);
    expect(wide.length).toBeLessThan(MAX_XML_BYTES);
    const error = appErrorOf(() => xmlToProgram(wide));
    expect(error.code).toBe('payload_too_large');
    expect(error.status).toBe(413);
  });
});

describe('limits checked before parsing', () => {
  /** The demo document with more actions, one per description. */
  const withActions = (descriptions: string[]) =>
    DEMO_XML.replace('<Actions>', `<Actions>${descriptions.map((description, i) => `<Action name="bulk_${i}" description="${description}"/>`).join('')}`);
  const count = (pattern: RegExp) => (DEMO_XML.match(pattern) ?? []).length;
  /** The demo document holding `n` references in all, at most 4,000 in one value. */
  const withReferences = (n: number) => {
    const more = n - count(/&/g);
    return withActions(Array.from({ length: Math.ceil(more / 4000) }, (_, i) => '&amp;'.repeat(Math.min(4000, more - i * 4000))));
  };
  const attributes = (n: number) => Array.from({ length: n }, (_, i) => `a${i}=""`).join(' ');
  /** The code xmlToProgram throws, or 'parsed'. */
  const outcome = (xml: string) => {
    try {
      xmlToProgram(xml);
      return 'parsed';
    } catch (error) {
      return (error as AppError).code;
    }
  };

  // Each document is made at the limit (not refused by it) and one over the limit (refused).
  it.each([
    ['an attribute value, in characters', XML_LIMITS.valueChars, (n: number) => withActions(['d'.repeat(n)])],
    ['the character references in one value', XML_LIMITS.valueReferences, (n: number) => withActions(['&#65;'.repeat(n)])],
    ['the character references in the document', XML_LIMITS.references, withReferences],
    ['the elements', XML_LIMITS.elements, (n: number) => withActions(Array.from({ length: n - count(/<[A-Za-z]/g) }, () => 'd'))],
    ['the text between two elements, in characters', XML_LIMITS.textChars, (n: number) => DEMO_XML.replace('<Actions>', `<Actions>${' '.repeat(n)}<!---->`)],
    ['the attributes of one element', XML_LIMITS.attributesPerElement, (n: number) => DEMO_XML.replace('<Actions>', `<Actions><Action ${attributes(n)}/>`)],
    [
      'the attributes in the document',
      XML_LIMITS.attributes,
      (n: number) => {
        // The attributes the demo document has already (its <?xml …?> declaration's are not attributes).
        const more = n - (DEMO_XML.replace(/<\?.*?\?>/g, '').match(/="/g) ?? []).length;
        const full = Math.floor(more / 64);
        return DEMO_XML.replace('<Actions>', `<Actions>${`<Action ${attributes(64)}/>`.repeat(full)}<Action ${attributes(more - full * 64)}/>`);
      },
    ],
    [
      'a tag outside its values, in characters',
      XML_LIMITS.tagChars,
      (n: number) => DEMO_XML.replace('<Actions>', `<Actions${' '.repeat(n - 'Actions'.length)}>`),
    ],
  ])('%s: %i is read, one more is refused with xml_forbidden', (_name, limit, make) => {
    expect(outcome(make(limit))).not.toBe('xml_forbidden');
    const error = appErrorOf(() => xmlToProgram(make(limit + 1)));
    expect(error.code).toBe('xml_forbidden');
    expect(error.status).toBe(400);
  });

  it('reads the demo program, which is far inside every limit', () => {
    expect(outcome(DEMO_XML)).toBe('parsed');
  });

  it('refuses an attribute of 1.9 million character references (9.5 MB) before parsing it', () => {
    const attack = doc(mission()).replace('name="Tiny"', `name="${'&#65;'.repeat(1_900_000)}"`);
    expect(Buffer.byteLength(attack)).toBeGreaterThan(9_500_000);
    expect(appErrorOf(() => xmlToProgram(attack)).code).toBe('xml_forbidden');
  });
});

describe('xmlPath', () => {
  it.each([
    ['missions.1.rules.0.goal', 'SiteConfiguration/Missions/Mission[2]/Rules/Rule[1]/@goal'],
    ['site.name', 'SiteConfiguration/@name'],
    ['site.timezone', 'SiteConfiguration/@timezone'],
    ['site.allowedOrigins.2', 'SiteConfiguration/AllowedOrigin[3]/@url'],
    ['missions.0.prerequisites.missions.0', 'SiteConfiguration/Missions/Mission[1]/Prerequisites/Mission[1]/@id'],
    ['missions.0.prerequisites.groups.1', 'SiteConfiguration/Missions/Mission[1]/Prerequisites/Group[2]/@id'],
    ['missions.2.rules.0.metadata.1.value', 'SiteConfiguration/Missions/Mission[3]/Rules/Rule[1]/Metadata[2]/@value'],
    ['missions.0.rewards.points.0.category', 'SiteConfiguration/Missions/Mission[1]/Rewards/Points[1]/@category'],
    ['missions.0.rewards.badge', 'SiteConfiguration/Missions/Mission[1]/Rewards/@badge'],
    ['missions.3.repeatableWindow.maxPerPeriod', 'SiteConfiguration/Missions/Mission[4]/RepeatableWindow/@maxPerPeriod'],
    ['missions.0', 'SiteConfiguration/Missions/Mission[1]'],
    ['pointCategories.0.dailyLimit', 'SiteConfiguration/PointCategories/PointCategory[1]/@dailyLimit'],
    ['actions.4.rateLimit.period', 'SiteConfiguration/Actions/Action[5]/RateLimit/@period'],
    ['leaderboards.0.metric.category', 'SiteConfiguration/Leaderboards/Leaderboard[1]/Metric/@category'],
    ['layouts.1.leaderboards.0', 'SiteConfiguration/Layouts/Layout[2]/Leaderboard[1]/@id'],
    ['quizzes.0.questions.1.choices.2.correct', 'SiteConfiguration/Quizzes/Quiz[1]/Question[2]/Choice[3]/@correct'],
    ['exchanges.0.recipients.groups.0', 'SiteConfiguration/Exchanges/Exchange[1]/Recipients/Group[1]/@id'],
    ['exchanges.0.budget.amount', 'SiteConfiguration/Exchanges/Exchange[1]/Budget/@amount'],
    ['awardSettings.marketplaces.1.urlTemplate', 'SiteConfiguration/AwardSettings/Marketplace[2]/@urlTemplate'],
    ['awardSettings.allowedCountries.0', 'SiteConfiguration/AwardSettings/AllowedCountry[1]/@code'],
  ])('maps %s to %s', (modelPath, expected) => {
    expect(xmlPath(modelPath)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// The XML spec covers the model: a field added to src/modules/program/model.ts without an XML
// mapping fails here.

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** The program as one element tree: `site` is the SiteConfiguration's attributes and its `site.*` children. */
function programSpec(): ElementSpec {
  const children = siteConfigurationSpec.children ?? [];
  const site: ElementSpec = {
    element: 'SiteConfiguration',
    attributes: siteConfigurationSpec.attributes,
    children: children.filter((c) => c.key.startsWith('site.')).map((c) => ({ ...c, key: c.key.slice('site.'.length) })),
  };
  return {
    element: 'SiteConfiguration',
    attributes: [],
    children: [{ kind: 'object', key: 'site', spec: site }, ...children.filter((c) => !c.key.startsWith('site.'))],
  };
}

/** Model paths (`missions.rules.goal`) of properties under `schema` that `spec` does not map, or maps with the wrong shape. */
function unmapped(schema: SchemaNode, spec: ElementSpec, path = ''): string[] {
  const missing: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const where = path === '' ? key : `${path}.${key}`;
    const scalar = property.properties === undefined && property.type !== 'array';
    const child = spec.children?.find((c) => c.key === key);
    if (spec.attributes.some(([name]) => name === key)) {
      if (!scalar) missing.push(`${where} (an attribute, but not a scalar)`);
    } else if (child === undefined) {
      missing.push(where);
    } else if (child.kind === 'values') {
      if (property.type !== 'array' || property.items?.properties !== undefined) missing.push(`${where} (a values list, but not a list of scalars)`);
    } else if (child.kind === 'list') {
      if (property.items?.properties === undefined) missing.push(`${where} (a list of elements, but not a list of objects)`);
      else missing.push(...unmapped(property.items, child.spec, where));
    } else if (property.properties === undefined) {
      missing.push(`${where} (an element, but not an object)`);
    } else {
      missing.push(...unmapped(property, child.spec, where));
    }
  }
  return missing;
}

/** Spec entries (attributes and children) the model does not have. */
function unknownToModel(schema: SchemaNode, spec: ElementSpec, path = ''): string[] {
  const properties = schema.properties ?? {};
  const extra = spec.attributes.filter(([key]) => properties[key] === undefined).map(([key]) => `${path}@${key}`);
  for (const child of spec.children ?? []) {
    const property = properties[child.key];
    if (property === undefined) extra.push(`${path}${child.key}`);
    else if (child.kind === 'object') extra.push(...unknownToModel(property, child.spec, `${path}${child.key}.`));
    else if (child.kind === 'list' && property.items) extra.push(...unknownToModel(property.items, child.spec, `${path}${child.key}.`));
  }
  return extra;
}

describe('the XML spec and the program model', () => {
  const program = Program as unknown as SchemaNode;

  it('maps every property of every object in the model, except the write-only webhook secret', () => {
    expect(unmapped(program, programSpec())).toEqual(['site.webhookSecret']);
  });

  it('notices a model field without an XML mapping', () => {
    const missionSchema = program.properties?.missions?.items as SchemaNode;
    const grown: SchemaNode = {
      ...program,
      properties: {
        ...program.properties,
        mascot: Type.String() as SchemaNode,
        missions: { type: 'array', items: { ...missionSchema, properties: { ...missionSchema.properties, colour: Type.String() as SchemaNode } } },
      },
    };
    expect(unmapped(grown, programSpec())).toEqual(['site.webhookSecret', 'missions.colour', 'mascot']);
  });

  it('maps nothing the model lacks, except the legacy RepeatableWindow time zone', () => {
    expect(unknownToModel(program, programSpec())).toEqual(['missions.repeatableWindow.@timezone']);
  });
});

describe('streaks, boosts, expiry, prizes and level prerequisites', () => {
  const program = validateProgram({
    site: { name: 'Engagement', timezone: 'Europe/Paris' },
    pointCategories: [
      { name: 'Points', isDefault: true, expiry: { afterDays: 365 } },
      { name: 'Coins', expiry: { date: '2026-12-31T23:59:59' } },
    ],
    actions: [{ name: 'login' }, { name: 'read' }],
    badges: [{ id: 'b-week', name: 'A week' }],
    levels: [
      { id: 'l-1', name: 'One', threshold: 0 },
      { id: 'l-2', name: 'Two', threshold: 100 },
    ],
    groups: [{ id: 'g-staff', name: 'Staff' }],
    missions: [
      {
        id: 'm-read',
        name: 'Read',
        prerequisites: { minLevel: 'l-2', excludedGroups: ['g-staff'] },
        rules: [{ id: 'r', action: 'read', goal: 1 }],
        rewards: { points: [{ category: 'Points', amount: 10 }] },
      },
    ],
    leaderboards: [
      {
        id: 'lb-week',
        name: 'This week',
        metric: { type: 'points', category: 'Points' },
        period: 'week',
        prizes: [
          { ranks: '1', rewards: { points: [{ category: 'Coins', amount: 100 }], badge: 'b-week' } },
          { ranks: '2-3', rewards: { points: [{ category: 'Coins', amount: 50 }] } },
        ],
      },
      { id: 'lb-season', name: 'Season', metric: { type: 'lifetimePoints' }, end: '2026-12-31T23:59:59' },
    ],
    streaks: [
      {
        id: 's-login',
        name: 'Daily login',
        action: 'login',
        freezes: { max: 2, initial: 1, earnEvery: 7 },
        milestones: [{ length: 7, rewards: { points: [{ category: 'Points', amount: 70 }], badge: 'b-week' } }],
      },
      { id: 's-read', name: 'Weekly reading', mission: 'm-read', period: 'week' },
    ],
    boosts: [
      { id: 'weekend', name: 'Double weekend', multiplier: 2, start: '2026-12-05T00:00', end: '2026-12-06T23:59:59' },
      {
        id: 'staff',
        multiplier: 1.5,
        start: '2026-12-01T00:00',
        end: '2026-12-31T23:59',
        timezone: 'Pacific Standard Time',
        actions: ['read'],
        missions: ['m-read'],
        groups: ['g-staff'],
      },
    ],
  });

  it('fills their defaults', () => {
    expect(program.streaks?.[1]).toEqual({
      id: 's-read',
      name: 'Weekly reading',
      mission: 'm-read',
      period: 'week',
      freezes: { max: 0, initial: 0 },
      milestones: [],
    });
    expect(program.boosts?.[0]).toMatchObject({ actions: [], missions: [], groups: [] });
    expect(program.boosts?.[1]?.timezone).toBe('America/Los_Angeles');
    expect(program.missions[0]?.prerequisites).toEqual({ groups: [], missions: [], minLevel: 'l-2', excludedGroups: ['g-staff'] });
  });

  it('round-trip through XML unchanged', () => {
    const xml = programToXml(program);
    expect(xml).toContain('<Streak id="s-login" name="Daily login" action="login" period="day">');
    expect(xml).toContain('<Freezes max="2" initial="1" earnEvery="7"/>');
    expect(xml).toContain('<Prize ranks="2-3">');
    expect(xml).toContain('<Expiry afterDays="365"/>');
    expect(xml).toContain('<ExcludedGroup id="g-staff"/>');
    expect(validateProgram(xmlToProgram(xml))).toEqual(program);
  });

  it('leave a program that uses none of them as it was: no empty lists are added', () => {
    const plain = validateProgram({ site: { name: 'Plain' }, pointCategories: [{ name: 'Points', isDefault: true }] });
    expect(Object.keys(plain)).not.toContain('streaks');
    expect(validateProgram(xmlToProgram(programToXml(plain)))).toEqual(plain);
    expect(programToXml(plain)).not.toMatch(/Streaks|Boosts|Prizes|Expiry/);
  });
});
