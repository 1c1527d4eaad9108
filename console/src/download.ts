// Downloads the console offers: text made in the page (CSV), saved by the browser under a name,
// from a Blob's object URL (no request to the server; the page's Content-Security-Policy allows it).
import { toCsv, type Cell } from './csv.js';

/** Has the browser save `rows` as a CSV file named `filename`. */
export function downloadCsv(filename: string, rows: ReadonlyArray<ReadonlyArray<Cell>>): void {
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; revoking it later frees the text.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
