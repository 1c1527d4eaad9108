// The malformed_xml error for what fast-xml-parser's validator reports: one message, with the
// location once, in words rather than the validator's internals.
import { AppError } from '../../errors.js';

/** The validator's report (XMLValidator.validate's `err`). */
export interface ValidatorError {
  msg: string;
  line?: number;
  col?: number;
}

// A document that ends with several elements still open is reported as the validator's own tag
// stack, `Invalid '[    "Nitro",    "SiteConfiguration"]' found.`, at line 1, column 1.
const UNCLOSED_STACK = /^Invalid '\[(.*)\]' found\.$/s;

/** Where a document's last character is (trailing whitespace aside): line and column, from 1. */
function endOf(xml: string): { line: number; column: number } {
  const content = xml.trimEnd();
  const lines = content.split('\n');
  return { line: lines.length, column: (lines.at(-1) ?? '').length + 1 };
}

export function malformedXml(xml: string, error: ValidatorError): AppError {
  let message = error.msg;
  let line = error.line ?? 1;
  let column = error.col ?? 1;
  const stack = UNCLOSED_STACK.exec(message);
  if (stack !== null) {
    const open = [...(stack[1] ?? '').matchAll(/"([^"]*)"/g)].map((match) => `<${match[1]}>`).reverse();
    message = `The document ends before ${open.join(', ')} ${open.length === 1 ? 'is' : 'are'} closed.`;
    ({ line, column } = endOf(xml));
  }
  const where = `line ${line}, column ${column}`;
  return new AppError('malformed_xml', `Malformed XML at ${where}: ${message}`, { errors: [{ path: where, message }] });
}
