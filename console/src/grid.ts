// The console's data grid: Tabulator with the modules the console uses (sorting, formatting, row clicks,
// resizable columns, a layout that fits the page), registered once.
import { FormatModule, InteractionModule, ResizeColumnsModule, ResponsiveLayoutModule, SortModule, Tabulator, type ColumnDefinition } from 'tabulator-tables';

Tabulator.registerModule([FormatModule, InteractionModule, SortModule, ResizeColumnsModule, ResponsiveLayoutModule]);

/**
 * A read-only grid of `rows` in `element`, its columns fitted to the width; setData() replaces the rows.
 * `placeholder`, shown while there is no row, may be an element whose text the page changes later.
 */
export function grid<T extends object>(
  element: HTMLElement,
  columns: ColumnDefinition[],
  rows: T[] = [],
  placeholder: string | HTMLElement = 'Nothing yet',
): Tabulator {
  const table = new Tabulator(element, { data: rows, columns, layout: 'fitColumns', responsiveLayout: 'collapse', placeholder, reactiveData: false });
  // With no height the grid grows with its rows and its row holder never scrolls: its tabindex
  // would only put a role-less stop in the tab order (axe: aria-required-children under role=grid).
  table.on('tableBuilt', () => element.querySelector('.tabulator-tableholder')?.removeAttribute('tabindex'));
  return table;
}
