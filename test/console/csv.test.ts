// The console's CSV (console/src/csv.ts): RFC 4180 quoting, CRLF line ends, and text cells a
// spreadsheet would run as a formula made inert.
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../console/src/csv.js';

describe('toCsv', () => {
  it('writes a header and rows, each line ended by CRLF, numbers as they are', () => {
    expect(
      toCsv([
        ['day', 'actions'],
        ['2026-11-26', 12],
        ['2026-11-27', -3],
      ]),
    ).toBe('day,actions\r\n2026-11-26,12\r\n2026-11-27,-3\r\n');
  });

  it('quotes a field holding a comma, a quote or a line break, its quotes doubled', () => {
    expect(toCsv([['Read, then share', 'The "big" one', 'two\nlines', 'cr\rlf', 'plain']])).toBe(
      '"Read, then share","The ""big"" one","two\nlines","cr\rlf",plain\r\n',
    );
  });

  it('prefixes an apostrophe to text a spreadsheet would read as a formula', () => {
    expect(toCsv([['=SUM(A1)', '+1', '-x', '@cmd', '=a,b', 'a=b']])).toBe(`'=SUM(A1),'+1,'-x,'@cmd,"'=a,b",a=b\r\n`);
  });
});
