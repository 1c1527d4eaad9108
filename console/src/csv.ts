// The CSV the console offers for download: RFC 4180 text (CRLF line ends; a field holding a comma,
// a quote or a line break quoted, its quotes doubled). Pure, so that Node's tests check it too.
// A text field that a spreadsheet would read as a formula (=, +, -, @ first) is prefixed with an
// apostrophe, as OWASP advises against CSV injection: names come from the program's authors and
// users; numbers are written as they are.

export type Cell = string | number;

/** The rows as CSV text, the first being the header. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<Cell>>): string {
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

function field(cell: Cell): string {
  if (typeof cell === 'number') return String(cell);
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
