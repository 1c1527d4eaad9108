// Webhooks: the deliveries (newest first, by status), each with what the receiver last answered and
// a way to send it again; the endpoints subscribed to event types; and the signing secret, shown
// on request and rotated with a confirmation (the old one keeps signing for a day).
import type { Tabulator } from 'tabulator-tables';
import { html, LitElement, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { api, apiPage } from '../api.js';
import { grid } from '../grid.js';
import { PAGE, pager } from '../pager.js';
import type { Delivery, Endpoint } from '../../../src/modules/webhooks/service.js';
import type { SecretView as Secret } from '../../../src/modules/webhooks/signing-secrets.js';

const when = (iso: string | null) => (iso === null ? '' : new Date(iso).toLocaleString());
const STATUS_VARIANT = { pending: 'warning', delivered: 'success', dead: 'danger' } as const;

@customElement('ql-webhooks-page')
export class QlWebhooksPage extends LitElement {
  @state() private status = '';
  @state() private offset = 0;
  @state() private total = 0;
  @state() private endpoints: Endpoint[] | undefined;
  @state() private secret: Secret | undefined;
  @state() private selected: Delivery | undefined;
  @state() private error: string | undefined;
  @state() private notice: string | undefined;
  @query('.deliveries') private readonly deliveriesElement!: HTMLElement;
  @query('.endpoints') private readonly endpointsElement!: HTMLElement;
  private deliveries: Tabulator | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.deliveries = grid<Delivery>(
      this.deliveriesElement,
      [
        { title: 'Created', field: 'createdAt', formatter: (cell) => when(cell.getValue() as string), minWidth: 170 },
        { title: 'Event', field: 'eventType', minWidth: 150 },
        { title: 'For', field: 'userId', formatter: (cell) => subject(cell.getRow().getData() as Delivery), minWidth: 100 },
        { title: 'Destination', field: 'destination', minWidth: 160, formatter: (cell) => this.destination(cell.getValue() as string) },
        { title: 'Status', field: 'status', width: 110, formatter: (cell) => statusBadge(cell.getValue() as Delivery['status']) },
        { title: 'Attempts', field: 'attempts', width: 100, hozAlign: 'right' },
        { title: 'Last answer', field: 'lastStatus', minWidth: 140, formatter: (cell) => lastAnswer(cell.getRow().getData() as Delivery) },
      ],
      [],
      'No delivery yet',
    );
    this.deliveries.on('rowClick', (_event, row) => {
      this.selected = row.getData() as Delivery;
    });
    // The endpoints first: a delivery's destination is shown as its endpoint's URL.
    this.deliveries.on('tableBuilt', () => void this.loadEndpoints().then(() => this.loadDeliveries()));
  }

  /** `endpoint:<id>` as the endpoint's URL (the id when the endpoint is gone); a site setting as its name. */
  private destination(destination: string): string {
    const [kind, name = ''] = destination.split(/:(.*)/s);
    if (kind === 'endpoint') return this.endpoints?.find((endpoint) => endpoint.id === name)?.url ?? destination;
    return kind === 'site' ? `site setting ${name}` : destination;
  }

  private async loadDeliveries(): Promise<void> {
    try {
      const query = new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) });
      if (this.status !== '') query.set('status', this.status);
      const page = await apiPage<Delivery>(`/admin/webhook-deliveries?${query}`);
      await this.deliveries?.setData(page.items);
      this.total = page.total ?? page.items.length;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async loadEndpoints(): Promise<void> {
    try {
      this.endpoints = await api<Endpoint[]>('GET', '/admin/webhook-endpoints');
      await this.updateComplete;
      grid<Endpoint>(
        this.endpointsElement,
        [
          { title: 'URL', field: 'url', minWidth: 240 },
          { title: 'Event types', field: 'eventTypes', formatter: (cell) => (cell.getValue() as string[]).join(', '), minWidth: 200 },
          { title: 'Description', field: 'description', minWidth: 160 },
          { title: 'Since', field: 'createdAt', formatter: (cell) => when(cell.getValue() as string), minWidth: 170 },
        ],
        this.endpoints,
        'No endpoint: events go to the site settings’ URLs only',
      );
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private readonly redeliver = async (delivery: Delivery) => {
    try {
      await api('POST', `/admin/webhook-deliveries/${encodeURIComponent(delivery.id)}/redeliver`);
      this.notice = `Delivery ${delivery.id} will be sent again now.`;
      this.selected = undefined;
      await this.loadDeliveries();
    } catch (error) {
      this.error = (error as Error).message;
    }
  };

  private readonly showSecret = async () => {
    try {
      this.secret = await api<Secret>('GET', '/admin/webhook-secret');
    } catch (error) {
      this.error = (error as Error).message;
    }
  };

  private readonly rotate = async () => {
    try {
      this.secret = await api<Secret>('POST', '/admin/webhook-secret/rotate', {});
      this.notice = `The secret was rotated: the old one keeps signing until ${when(this.secret.previousSecretValidUntil)}.`;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      (this.querySelector('sl-dialog.rotate') as HTMLElement & { hide(): void }).hide();
    }
  };

  protected override render(): TemplateResult {
    return html`
      <section class="page">
        <header class="page-head"><h1>Webhooks</h1></header>
        ${
          this.error === undefined
            ? ''
            : html`<sl-alert variant="danger" open closable @sl-after-hide=${() => (this.error = undefined)}
              ><sl-icon slot="icon" name="exclamation-triangle"></sl-icon>${this.error}</sl-alert
            >`
        }
        ${
          this.notice === undefined
            ? ''
            : html`<sl-alert variant="success" open closable @sl-after-hide=${() => (this.notice = undefined)}
              ><sl-icon slot="icon" name="check2-circle"></sl-icon>${this.notice}</sl-alert
            >`
        }

        <h2 class="first">Deliveries</h2>
        <div class="filters">
          <sl-select
            label="Status"
            value=${this.status === '' ? 'all' : this.status}
            @sl-change=${(event: Event) => {
              const value = (event.target as HTMLSelectElement).value;
              this.status = value === 'all' ? '' : value;
              this.offset = 0;
              void this.loadDeliveries();
            }}
          >
            <sl-option value="all">All</sl-option>
            <sl-option value="pending">Pending (retrying)</sl-option>
            <sl-option value="delivered">Delivered</sl-option>
            <sl-option value="dead">Dead (gave up)</sl-option>
          </sl-select>
          <sl-button @click=${() => void this.loadDeliveries()}><sl-icon slot="prefix" name="arrow-clockwise"></sl-icon>Refresh</sl-button>
        </div>
        <p class="muted">Select a delivery to see what its receiver answered, or to send it again.</p>
        <div class="deliveries grid-box" role="region" aria-label="Deliveries"></div>
        ${pager(
          { offset: this.offset, total: this.total },
          (offset) => {
            this.offset = offset;
            void this.loadDeliveries();
          },
          ['Newer', 'Older'],
        )}

        <h2>Endpoints</h2>
        ${this.endpoints === undefined ? html`<sl-spinner aria-label="Loading"></sl-spinner>` : ''}
        <div class="endpoints grid-box" role="region" aria-label="Endpoints"></div>

        <h2>Signing secret</h2>
        <p class="muted">Receivers check each delivery's signature with this secret (Standard Webhooks).</p>
        <div class="secret">
          ${
            this.secret === undefined
              ? html`<sl-button @click=${this.showSecret}><sl-icon slot="prefix" name="key"></sl-icon>Show the secret</sl-button>`
              : html`<code class="secret-value">${this.secret.secret}</code>`
          }
          <sl-button variant="warning" outline @click=${() => (this.querySelector('sl-dialog.rotate') as HTMLElement & { show(): void }).show()}
            >Rotate…</sl-button
          >
        </div>
        ${
          this.secret?.previousSecretValidUntil == null
            ? ''
            : html`<p class="muted">The previous secret keeps signing beside it until ${when(this.secret.previousSecretValidUntil)}.</p>`
        }

        <sl-dialog class="rotate" label="Rotate the signing secret?">
          A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours, so that receivers can switch without
          losing a delivery.
          <sl-button slot="footer" @click=${() => (this.querySelector('sl-dialog.rotate') as HTMLElement & { hide(): void }).hide()}>Cancel</sl-button>
          <sl-button slot="footer" variant="warning" @click=${this.rotate}>Rotate</sl-button>
        </sl-dialog>

        <sl-dialog class="delivery" label="Delivery" ?open=${this.selected !== undefined} @sl-after-hide=${() => (this.selected = undefined)}>
          ${this.selected === undefined ? '' : deliveryDetails(this.selected)}
          <sl-button slot="footer" @click=${() => (this.selected = undefined)}>Close</sl-button>
          <sl-button slot="footer" variant="primary" @click=${() => this.selected !== undefined && void this.redeliver(this.selected)}
            ><sl-icon slot="prefix" name="arrow-clockwise"></sl-icon>Send again</sl-button
          >
        </sl-dialog>
      </section>
    `;
  }
}

function subject(delivery: Delivery): string {
  if (delivery.userId !== undefined) return `user ${delivery.userId}`;
  return delivery.groupId !== undefined ? `group ${delivery.groupId}` : '';
}

function statusBadge(status: Delivery['status']): HTMLElement {
  const badge = document.createElement('sl-badge');
  badge.setAttribute('variant', STATUS_VARIANT[status]);
  badge.textContent = status;
  return badge;
}

function lastAnswer(delivery: Delivery): string {
  if (delivery.lastStatus !== null) return `HTTP ${delivery.lastStatus}`;
  return delivery.lastError ?? (delivery.attempts === 0 ? 'not sent yet' : '');
}

function deliveryDetails(delivery: Delivery): TemplateResult {
  const rows: Array<[string, string]> = [
    ['Event', `${delivery.eventType} (${delivery.eventId})`],
    ['For', subject(delivery) || '—'],
    ['Destination', delivery.lastUrl ?? delivery.destination],
    ['Status', delivery.status],
    ['Attempts', String(delivery.attempts)],
    ['Last sent to', delivery.lastUrl ?? '—'],
    ['Last sent at', when(delivery.lastAttemptAt) || '—'],
    ['Receiver answered', delivery.lastStatus === null ? '—' : `HTTP ${delivery.lastStatus}`],
    ['Error', delivery.lastError ?? '—'],
    ['Next attempt', when(delivery.nextAttemptAt) || '—'],
    ['Delivered at', when(delivery.deliveredAt) || '—'],
  ];
  return html`<dl class="details">${rows.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}
