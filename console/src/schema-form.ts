// The one form renderer of the program editor: a program entity's JSON Schema (the TypeBox model
// the server validates with) becomes Shoelace controls (text → sl-input, a union of literals or a
// reference to another entity → sl-select, boolean → sl-switch, number → a number input, a local
// date-time → a datetime-local input, object → fieldset, array → a list with add and remove),
// laid out in the sections of the entity's FormHints. Every control carries the JSON Pointer of
// its value (data-path), which is how a problem+json field error finds its field (controlFor).
import { html, nothing, type TemplateResult } from 'lit';

/** The parts of a JSON Schema the program's model uses. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  default?: unknown;
  description?: string;
  pattern?: string;
  maxLength?: number;
  minItems?: number;
}

/** How one entity type's form is laid out and worded; fields are named by their shape ('rules.*.goal'). */
export interface FormHints {
  /** The form's sections in order; fields no section names go to a last "More" section. */
  sections: Array<{ title: string; fields: string[]; collapsed?: boolean; intro?: string }>;
  labels?: Record<string, string>;
  help?: Record<string, string>;
  /** Fields whose values name other entities: shape → the kind of entity (a key of FormContext.references). */
  references?: Record<string, string>;
  /** What one item of a list is called: shape → noun ('rules' → 'rule'). */
  items?: Record<string, string>;
  /** Fields shown as a wide text area. */
  long?: string[];
}

export interface FormContext {
  hints: FormHints;
  /** The names a reference may take, by kind ('actions' → every action name). */
  references: Record<string, string[]>;
  /** Field errors by the pointer of the control they belong to. */
  errors: ReadonlyMap<string, string>;
  set(pointer: string, value: unknown): void;
}

const LOCAL_DATE_TIME = /\\d\{4\}/;

/** "startDate" → "Start date". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const choices = (schema: JsonSchema): string[] | undefined =>
  schema.anyOf?.every((option) => typeof option.const === 'string') === true ? schema.anyOf.map((option) => option.const as string) : undefined;

/**
 * A new value for `schema`: its default, or an empty one with every required property made (a list
 * that needs items gets them, each with an id: `rule-1`).
 */
export function blank(schema: JsonSchema, key = ''): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.type === 'object') {
    const object: Record<string, unknown> = {};
    for (const name of schema.required ?? []) object[name] = blank(schema.properties?.[name] ?? {}, name);
    return object;
  }
  if (schema.type === 'array') {
    const items: unknown[] = [];
    for (let i = 0; i < (schema.minItems ?? 0); i++) items.push(newItem(schema.items ?? {}, items, key.replace(/s$/, '')));
    return items;
  }
  if (schema.type === 'boolean') return false;
  const options = choices(schema);
  return options === undefined ? undefined : options[0];
}

/** A new item for a list: blank, with an id no other item has (`rule-2`) when items have ids. */
function newItem(schema: JsonSchema, items: unknown[], noun: string): unknown {
  const item = blank(schema);
  if (schema.properties?.id === undefined || typeof item !== 'object' || item === null) return item;
  const taken = new Set(items.map((other) => (other as { id?: unknown }).id));
  let n = items.length + 1;
  while (taken.has(`${noun}-${n}`)) n++;
  return { ...item, id: `${noun}-${n}` };
}

/** The pointer of the control that shows an error at `pointer` (the deepest field it reaches), or '' when none does. */
export function controlFor(schema: JsonSchema, value: unknown, pointer: string): string {
  let node: JsonSchema | undefined = schema;
  let current = value;
  let reached = '';
  for (const segment of pointer.split('/').slice(1)) {
    if (node.type === 'object' && node.properties?.[segment] !== undefined && typeof current === 'object' && current !== null) {
      node = node.properties[segment];
      current = (current as Record<string, unknown>)[segment];
    } else if (node.type === 'array' && node.items?.type === 'object' && Array.isArray(current) && Number(segment) < current.length) {
      node = node.items;
      current = current[Number(segment)];
    } else break;
    reached += `/${segment}`;
  }
  return reached;
}

/** A dotted error path ('missions.3.rules.0.goal') as a JSON Pointer ('/missions/3/rules/0/goal'). */
export const pointerOf = (path: string): string => (path === '' ? '' : `/${path.split('.').join('/')}`);

/** The whole form of an entity, in its sections. */
export function entityForm(schema: JsonSchema, value: Record<string, unknown>, context: FormContext): TemplateResult {
  const keys = Object.keys(schema.properties ?? {});
  const placed = new Set(context.hints.sections.flatMap((section) => section.fields));
  const rest = keys.filter((key) => !placed.has(key));
  const sections = [...context.hints.sections, ...(rest.length === 0 ? [] : [{ title: 'More', fields: rest, collapsed: true, intro: undefined }])];
  return html`${sections.map((section) => {
    const [only] = section.fields;
    const single = section.fields.length === 1 && only !== undefined ? schema.properties?.[only] : undefined;
    // A section that is one object always there (the rewards) shows its fields without a second frame.
    const fields =
      single?.type === 'array' && single.items?.type === 'object' && only !== undefined
        ? [listField(labelOf(only, only, context), helpOf(single, only, context), single, value[only], `/${only}`, only, context, true)]
        : single?.type === 'object' && only !== undefined && (single.default !== undefined || schema.required?.includes(only) === true)
          ? childFields(single, value[only] ?? single.default, `/${only}`, only, context)
          : section.fields
              .filter((key) => schema.properties?.[key] !== undefined)
              .map((key) => field(key, schema.properties?.[key] ?? {}, value[key], `/${key}`, key, schema.required?.includes(key) ?? false, context));
    const inside = html`${section.intro === undefined ? nothing : html`<p class="muted small">${section.intro}</p>`}
      <div class="fields">${fields}</div>`;
    // A collapsed section opens by itself when one of its fields has an error.
    const failing = section.fields.some((key) => [...context.errors.keys()].some((pointer) => pointer === `/${key}` || pointer.startsWith(`/${key}/`)));
    return section.collapsed === true
      ? html`<sl-details class="form-section" summary=${section.title} ?open=${failing}>${inside}</sl-details>`
      : html`<section class="form-section"><h3>${section.title}</h3>${inside}</section>`;
  })}`;
}

/** Words every entity uses alike, where the hints say nothing. */
const LABELS: Record<string, string> = { id: 'Id', timezone: 'Time zone', iconUrl: 'Icon URL' };

function labelOf(key: string, shape: string, context: FormContext): string {
  return context.hints.labels?.[shape] ?? LABELS[key] ?? humanize(key);
}

function helpOf(schema: JsonSchema, shape: string, context: FormContext): string {
  const hint = context.hints.help?.[shape];
  if (hint !== undefined) return hint;
  return isLocalDateTime(schema) ? 'Local time, in the time zone given here' : (schema.description ?? '');
}

const isLocalDateTime = (schema: JsonSchema) => schema.pattern !== undefined && LOCAL_DATE_TIME.test(schema.pattern);

/** Error state of the control at `pointer`: its message in place of the help text, marked invalid. */
function errorOf(pointer: string, context: FormContext): string | undefined {
  return context.errors.get(pointer);
}

function field(key: string, schema: JsonSchema, value: unknown, pointer: string, shape: string, required: boolean, context: FormContext): TemplateResult {
  const label = labelOf(key, shape, context);
  const help = helpOf(schema, shape, context);
  const error = errorOf(pointer, context);
  const reference = context.hints.references?.[shape];
  const options = choices(schema);
  const shown = value ?? schema.default;
  if (schema.type === 'object') return objectField(label, help, schema, value, pointer, shape, required || schema.default !== undefined, context);
  if (schema.type === 'array') {
    if (schema.items?.type === 'object') return listField(label, help, schema, value, pointer, shape, context);
    return multiField(label, help, schema, value, pointer, reference, error, context);
  }
  if (schema.type === 'boolean') {
    return html`<div class="field switch" data-path=${pointer} aria-invalid=${error === undefined ? nothing : 'true'}>
      <sl-switch ?checked=${shown === true} @sl-change=${(event: Event) => context.set(pointer, (event.target as HTMLInputElement).checked)}>${label}</sl-switch>
      ${error === undefined ? (help === '' ? nothing : html`<div class="help">${help}</div>`) : html`<div class="help error">${error}</div>`}
    </div>`;
  }
  if (options !== undefined || reference !== undefined) {
    const names = options ?? context.references[reference ?? ''] ?? [];
    // A value the list lacks (an unknown action, say) is still shown, for the error to point at.
    const all = typeof shown === 'string' && shown !== '' && !names.includes(shown) ? [...names, shown] : names;
    return html`<sl-select
      class="field"
      data-path=${pointer}
      label=${label}
      help-text=${error ?? help}
      value=${typeof shown === 'string' ? shown : ''}
      aria-invalid=${error === undefined ? nothing : 'true'}
      ?data-error=${error !== undefined}
      ?clearable=${!required && schema.default === undefined}
      hoist
      @sl-change=${(event: Event) => {
        const picked = (event.target as HTMLSelectElement).value;
        context.set(pointer, picked === '' ? undefined : picked);
      }}
      >${all.map((name) => html`<sl-option value=${name}>${options === undefined ? name : humanize(name)}</sl-option>`)}</sl-select
    >`;
  }
  const common = { pointer, label, help: error ?? help, invalid: error !== undefined, set: context.set };
  if (schema.type === 'number' || schema.type === 'integer') {
    return input(common, 'number', shown === undefined ? '' : String(shown), (raw) => (raw === '' ? undefined : Number(raw)), 'sl-change');
  }
  if (isLocalDateTime(schema)) {
    return input(common, 'datetime-local', typeof shown === 'string' ? shown : '', (raw) => (raw === '' ? undefined : raw), 'sl-change', '1');
  }
  if ((schema.maxLength ?? 0) >= 4000 || context.hints.long?.includes(shape)) {
    return html`<sl-textarea
      class="field wide"
      data-path=${pointer}
      label=${label}
      help-text=${common.help}
      rows="2"
      resize="auto"
      .value=${typeof shown === 'string' ? shown : ''}
      aria-invalid=${error === undefined ? nothing : 'true'}
      ?data-error=${error !== undefined}
      @sl-input=${(event: Event) => context.set(pointer, emptyAsNone((event.target as HTMLTextAreaElement).value, required))}
    ></sl-textarea>`;
  }
  return input(common, 'text', typeof shown === 'string' ? shown : '', (raw) => emptyAsNone(raw, required), 'sl-input');
}

/** An optional field left empty is left out; a required one stays '' for the server to name. */
const emptyAsNone = (raw: string, required: boolean) => (raw === '' && !required ? undefined : raw);

function input(
  { pointer, label, help, invalid, set }: { pointer: string; label: string; help: string; invalid: boolean; set: FormContext['set'] },
  type: string,
  value: string,
  parse: (raw: string) => unknown,
  on: 'sl-input' | 'sl-change',
  step?: string,
): TemplateResult {
  const handler = (event: Event) => set(pointer, parse((event.target as HTMLInputElement).value));
  return html`<sl-input
    class="field"
    data-path=${pointer}
    type=${type}
    label=${label}
    help-text=${help}
    step=${step ?? (type === 'number' ? 'any' : nothing)}
    .value=${value}
    aria-invalid=${invalid ? 'true' : nothing}
    ?data-error=${invalid}
    @sl-input=${on === 'sl-input' ? handler : nothing}
    @sl-change=${on === 'sl-change' ? handler : nothing}
  ></sl-input>`;
}

/** The fields of an object's properties (of its default while it has no value). */
function childFields(schema: JsonSchema, value: unknown, pointer: string, shape: string, context: FormContext): TemplateResult[] {
  const object = (typeof value === 'object' && value !== null ? value : (schema.default ?? {})) as Record<string, unknown>;
  return Object.entries(schema.properties ?? {}).map(([key, child]) =>
    field(key, child, object[key], `${pointer}/${key}`, `${shape}.${key}`, schema.required?.includes(key) ?? false, context),
  );
}

function objectField(
  label: string,
  help: string,
  schema: JsonSchema,
  value: unknown,
  pointer: string,
  shape: string,
  always: boolean,
  context: FormContext,
): TemplateResult {
  const present = typeof value === 'object' && value !== null;
  const inner = childFields(schema, value, pointer, shape, context);
  return html`<fieldset class="group" data-path=${pointer}>
    <legend>${label}</legend>
    ${help === '' ? nothing : html`<div class="help">${help}</div>`}
    ${
      always
        ? html`<div class="fields">${inner}</div>`
        : html`<sl-switch ?checked=${present} @sl-change=${(event: Event) => context.set(pointer, (event.target as HTMLInputElement).checked ? blank(schema) : undefined)}
            >Set ${label.toLowerCase()}</sl-switch
          >
          ${present ? html`<div class="fields">${inner}</div>` : nothing}`
    }
  </fieldset>`;
}

/** A list of objects, each in a frame with its Remove, and Add; `bare`: the list is its section, without its own frame. */
function listField(
  label: string,
  help: string,
  schema: JsonSchema,
  value: unknown,
  pointer: string,
  shape: string,
  context: FormContext,
  bare = false,
): TemplateResult {
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const noun = context.hints.items?.[shape] ?? label.toLowerCase().replace(/s$/, '');
  const itemSchema = schema.items ?? {};
  const error = context.errors.get(pointer);
  return html`<fieldset class="group list ${bare ? 'bare' : ''}" data-path=${pointer} aria-invalid=${error === undefined ? nothing : 'true'}>
    <legend class=${bare ? 'visually-hidden' : ''}>${label}</legend>
    ${help === '' ? nothing : html`<div class="help">${help}</div>`}
    ${error === undefined ? nothing : html`<div class="help error">${error}</div>`}
    ${items.map(
      (item, index) => html`<div class="item">
        <div class="item-head">
          <strong>${humanize(noun)} ${index + 1}</strong>
          <sl-button size="small" variant="text" @click=${() =>
            context.set(
              pointer,
              items.filter((_, i) => i !== index),
            )}>Remove ${noun} ${index + 1}</sl-button>
        </div>
        <div class="fields">
          ${Object.entries(itemSchema.properties ?? {}).map(([key, child]) =>
            field(
              key,
              child,
              (item as Record<string, unknown>)[key],
              `${pointer}/${index}/${key}`,
              `${shape}.*.${key}`,
              itemSchema.required?.includes(key) ?? false,
              context,
            ),
          )}
        </div>
      </div>`,
    )}
    <sl-button size="small" @click=${() => context.set(pointer, [...items, newItem(itemSchema, items, noun)])}>Add ${noun}</sl-button>
  </fieldset>`;
}

/** A list of names: a multiple select over the entities it refers to, or one name a line. */
function multiField(
  label: string,
  help: string,
  schema: JsonSchema,
  value: unknown,
  pointer: string,
  reference: string | undefined,
  error: string | undefined,
  context: FormContext,
): TemplateResult {
  const names = Array.isArray(value) ? (value as string[]) : ((schema.default as string[] | undefined) ?? []);
  if (reference !== undefined) {
    const known = context.references[reference] ?? [];
    const all = [...known, ...names.filter((name) => !known.includes(name))];
    return html`<sl-select
      class="field"
      data-path=${pointer}
      label=${label}
      help-text=${error ?? help}
      multiple
      clearable
      hoist
      max-options-visible="4"
      .value=${names}
      aria-invalid=${error === undefined ? nothing : 'true'}
      ?data-error=${error !== undefined}
      @sl-change=${(event: Event) => {
        const picked = (event.target as unknown as { value: string[] }).value;
        context.set(
          pointer,
          all.filter((name) => picked.includes(name)),
        );
      }}
      >${all.map((name) => html`<sl-option value=${name}>${name}</sl-option>`)}</sl-select
    >`;
  }
  return html`<sl-textarea
    class="field"
    data-path=${pointer}
    label=${label}
    help-text=${error ?? (help === '' ? 'One a line' : `${help} (one a line)`)}
    rows="2"
    resize="auto"
    .value=${names.join('\n')}
    aria-invalid=${error === undefined ? nothing : 'true'}
    ?data-error=${error !== undefined}
    @sl-change=${(event: Event) =>
      context.set(
        pointer,
        (event.target as HTMLTextAreaElement).value
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      )}
  ></sl-textarea>`;
}
