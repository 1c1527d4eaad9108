// Overview: the program's health over the last 7, 30 or 90 days of the site's time zone, from
// GET /admin/analytics/overview: headline figures, then a chart per series (actions, active users,
// points per category, completions, top missions, levels, webhook deliveries and the backlog),
// each downloadable as CSV. Refreshed every 30 seconds while shown, and on request.
import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import type { Overview } from '../../../src/modules/analytics/service.js';
import type { Range } from '../../../src/modules/analytics/days.js';
import { api } from '../api.js';
import { drawChart, type Chart } from '../charts.js';
import { downloadCsv } from '../download.js';
import { Refresher } from '../refresher.js';
import { fullDay, PANELS, type Panel } from './overview-panels.js';

const REFRESH_MS = 30_000;
const RANGES: Range[] = [7, 30, 90];
const number = (value: number) => value.toLocaleString();
const last = (values: readonly number[]) => values[values.length - 1] ?? 0;
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** How long before `now` an instant was: "3 minutes ago", "2 days ago". */
function ago(instant: string, now: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(now) - Date.parse(instant)) / 1000));
  if (seconds < 60) return relative.format(-seconds, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format(-Math.floor(seconds / 86_400), 'day');
}

/** The range the address asks for (`?days=90`), 30 days otherwise. */
function rangeOfAddress(): Range {
  const days = Number(new URLSearchParams(window.location.search).get('days'));
  return RANGES.find((range) => range === days) ?? 30;
}

@customElement('ql-overview-page')
export class QlOverviewPage extends LitElement {
  @state() private days: Range = rangeOfAddress();
  @state() private overview: Overview | undefined;
  @state() private loading = false;
  @state() private error: string | undefined;
  private readonly charts = new Map<string, Chart>();
  // Refreshes itself while shown (the figures of today move).
  private readonly refresher = new Refresher(this, REFRESH_MS, () => void this.load());

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    for (const chart of this.charts.values()) chart.destroy();
    this.charts.clear();
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    this.loading = true;
    try {
      const days = this.days;
      const overview = await api<Overview>('GET', `/admin/analytics/overview?days=${days}`);
      // A later range switch wins over an answer still on its way.
      if (days === this.days) this.overview = overview;
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private readonly changeRange = (event: Event) => {
    this.days = Number((event.target as HTMLInputElement).value) as Range;
    const address = new URL(window.location.href);
    address.searchParams.set('days', String(this.days));
    window.history.replaceState(null, '', address);
    void this.load();
  };

  /** The charts are drawn on the canvases the render left, once the data is there. */
  protected override updated(changed: PropertyValues): void {
    // An answer that arrives after the person left the page draws nothing (no chart left undestroyed).
    if (!changed.has('overview') || this.overview === undefined || !this.isConnected) return;
    for (const panel of PANELS) {
      const canvas = this.querySelector<HTMLCanvasElement>(`canvas[data-chart="${panel.id}"]`);
      const existing = this.charts.get(panel.id);
      if (canvas === null) {
        existing?.destroy();
        this.charts.delete(panel.id);
        continue;
      }
      this.charts.set(panel.id, drawChart(canvas, panel.spec(this.overview), existing?.canvas === canvas ? existing : undefined));
    }
  }

  protected override render(): TemplateResult {
    const overview = this.overview;
    return html`
      <section class="page overview">
        <header class="page-head">
          <h1>Overview</h1>
          ${overview === undefined ? '' : html`<span class="muted" aria-live="polite">Updated ${new Date(overview.generatedAt).toLocaleTimeString()}</span>`}
        </header>
        ${
          this.error === undefined
            ? ''
            : html`<sl-alert variant="danger" open><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert>`
        }
        <div class="filters">
          <sl-radio-group class="range" label="Range" name="days" value=${String(this.days)} @sl-change=${this.changeRange}>
            ${RANGES.map((range) => html`<sl-radio-button value=${String(range)}>${range} days</sl-radio-button>`)}
          </sl-radio-group>
          <sl-button ?loading=${this.loading} @click=${() => void this.load()}><sl-icon slot="prefix" name="arrow-clockwise"></sl-icon>Refresh</sl-button>
        </div>
        ${
          overview === undefined
            ? this.error === undefined
              ? html`<sl-spinner aria-label="Loading"></sl-spinner>`
              : ''
            : html`
              <p class="muted zone">
                Days of the site's time zone, <strong>${overview.timezone}</strong>: ${fullDay(overview.days[0] ?? '')} to today,
                ${fullDay(overview.days[overview.days.length - 1] ?? '')}. Today's figures are up to the minute.
              </p>
              ${this.headline(overview)}
              <div class="charts">${PANELS.map((panel) => this.panel(panel, overview))}</div>
            `
        }
      </section>
    `;
  }

  /** The figures a person glances at first. */
  private headline(o: Overview): TemplateResult {
    const active = o.activeUsers.perDay;
    const peak = Math.max(0, ...active);
    const average = active.length === 0 ? 0 : active.reduce((a, b) => a + b, 0) / active.length;
    const [main, ...others] = [...o.points].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    const card = (id: string, label: string, figure: string, detail: string | TemplateResult) =>
      html`<div class="card figure ${id}">
        <h2>${label}</h2>
        <p class="value">${figure}</p>
        <p class="muted small">${detail}</p>
      </div>`;
    return html`<div class="cards figures">
      ${card('actions', 'Actions', number(o.actions.total), `today ${number(last(o.actions.perDay))}`)}
      ${card('active-users', 'Active users a day', average.toLocaleString(undefined, { maximumFractionDigits: 1 }), `on average · today ${number(last(active))} · peak ${number(peak)}`)}
      ${card(
        'points',
        main === undefined ? 'Points issued' : `${main.category} issued`,
        number(main?.total ?? 0),
        others.length === 0 ? 'net of reversals' : others.map((c) => `${c.category} ${number(c.total)}`).join(' · '),
      )}
      ${card('completions', 'Mission completions', number(o.completions.total), `today ${number(last(o.completions.perDay))}`)}
    </div>`;
  }

  private panel(panel: Panel, o: Overview): TemplateResult {
    const note = panel.note(o);
    const bare = panel.bare?.(o) ?? false;
    const heading = `chart-${panel.id}`;
    return html`<section class="chart-panel ${panel.id} ${panel.wide === true ? 'wide' : ''}" aria-labelledby=${heading}>
      <header>
        <h2 id=${heading}>${panel.title}</h2>
        <sl-button size="small" @click=${() => downloadCsv(`${panel.id}-${o.days.length}d.csv`, panel.rows(o))}>
          <sl-icon slot="prefix" name="download"></sl-icon>Download CSV<span class="visually-hidden"> of ${panel.title.toLowerCase()}</span>
        </sl-button>
      </header>
      <p class="muted small">${panel.description}</p>
      ${note === undefined ? '' : html`<p class="note">${note}</p>`}
      ${
        bare
          ? ''
          : html`<div class="chart-box" style="height: ${panel.height?.(o) ?? 240}px">
            <canvas data-chart=${panel.id} role="img" aria-label=${panel.summary(o)}></canvas>
          </div>`
      }
      ${panel.id === 'webhook-deliveries-per-day' ? this.backlog(o) : ''}
    </section>`;
  }

  /** What waits to be delivered now. */
  private backlog(o: Overview): TemplateResult {
    const { pending, retrying, oldestPendingAt, unrouted } = o.webhooks.backlog;
    return html`<dl class="backlog">
      <div><dt>Waiting now</dt><dd>${number(pending)}</dd></div>
      <div><dt>Of those, retrying</dt><dd>${number(retrying)}</dd></div>
      <div>
        <dt>Oldest waiting</dt>
        <dd>${oldestPendingAt === null ? 'none' : html`<time datetime=${oldestPendingAt} title=${new Date(oldestPendingAt).toLocaleString()}>${ago(oldestPendingAt, o.generatedAt)}</time>`}</dd>
      </div>
      <div><dt>Events not yet routed</dt><dd>${number(unrouted)}</dd></div>
    </dl>`;
  }
}
