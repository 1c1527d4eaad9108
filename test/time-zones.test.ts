// canonicalTimeZone (src/time.ts): IANA names stay as given; Windows zone names (the CLDR "001"
// mapping in src/windows-zones.ts, what a Nitro export carries) become their IANA zone.
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, isValidTimeZone } from '../src/time.js';
import { WINDOWS_ZONES } from '../src/windows-zones.js';

describe('canonicalTimeZone', () => {
  it.each([
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['Eastern Standard Time', 'America/New_York'],
    ['Central Standard Time', 'America/Chicago'],
    ['Mountain Standard Time', 'America/Denver'],
    ['GMT Standard Time', 'Europe/London'],
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['Romance Standard Time', 'Europe/Paris'],
    ['India Standard Time', 'Asia/Kolkata'],
    ['Tokyo Standard Time', 'Asia/Tokyo'],
    ['AUS Eastern Standard Time', 'Australia/Sydney'],
    ['Pacific Standard Time (Mexico)', 'America/Tijuana'],
    ['UTC-11', 'Etc/GMT+11'],
    ['UTC+12', 'Etc/GMT-12'],
    ['pacific standard time', 'America/Los_Angeles'],
    ['PACIFIC STANDARD TIME', 'America/Los_Angeles'],
  ])('maps the Windows name %j to %s', (windows, iana) => {
    expect(canonicalTimeZone(windows)).toBe(iana);
  });

  it.each(['America/Los_Angeles', 'Europe/Paris', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata'])('keeps the IANA name %s as it is', (iana) => {
    expect(canonicalTimeZone(iana)).toBe(iana);
  });

  it.each(['Pacific Time', 'Pacific Daylight Time', 'Standard Time', 'Mars/Olympus_Mons', ' Pacific Standard Time', ''])('knows no zone %j', (name) => {
    expect(canonicalTimeZone(name)).toBeUndefined();
  });

  it('maps every Windows name of the table to a zone this runtime knows', () => {
    expect(Object.keys(WINDOWS_ZONES).length).toBeGreaterThan(130);
    const unknown = Object.entries(WINDOWS_ZONES).filter(([, iana]) => !isValidTimeZone(iana));
    expect(unknown).toEqual([]);
  });

  it('has no Windows name that is also an IANA name, except UTC (kept as given)', () => {
    expect(Object.keys(WINDOWS_ZONES).filter(isValidTimeZone)).toEqual(['UTC']);
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });
});
