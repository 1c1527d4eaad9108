// The malformed_xml error (src/modules/backup/malformed-xml.ts) for what the XML validator reports:
// one message with the location once; a document that ends with elements open names them, at its end.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { xmlToProgram } from '../../../src/modules/backup/xml.js';

function malformed(xml: string): AppError {
  try {
    xmlToProgram(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('malformed_xml');
    return error as AppError;
  }
  throw new Error('expected malformed_xml');
}

describe('malformed XML', () => {
  it.each([
    [
      'a document cut off inside three elements',
      '<Nitro>\n  <SiteConfiguration name="x">\n    <Missions>\n',
      'line 3, column 15',
      'The document ends before <Missions>, <SiteConfiguration>, <Nitro> are closed.',
    ],
    [
      'a document cut off inside two, without a last newline',
      '<Nitro>\n<SiteConfiguration name="x">',
      'line 2, column 29',
      'The document ends before <SiteConfiguration>, <Nitro> are closed.',
    ],
    ['one unclosed element', '<Nitro>', 'line 1, column 1', "Unclosed tag 'Nitro'."],
    [
      'a mismatched closing tag',
      '<Nitro>\n  <SiteConfiguration name="x">\n  </Configuration>\n</Nitro>',
      'line 3, column 3',
      "Expected closing tag 'SiteConfiguration' (opened in line 2, col 3) instead of closing tag 'Configuration'.",
    ],
  ])('reports %s once, at its location', (_name, xml, where, message) => {
    const error = malformed(xml);
    expect(error.message).toBe(`Malformed XML at ${where}: ${message}`);
    expect(error.options.errors).toEqual([{ path: where, message }]);
    expect(error.message).not.toMatch(/\[|"Nitro"/);
  });
});
