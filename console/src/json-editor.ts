// A JSON code editor (CodeMirror 6 with its JSON language: highlighting, bracket matching, undo,
// syntax errors marked as you type) as one element: `.value` sets the text, and every edit fires
// `ql-json-input` with the text. The text is only replaced from outside when it says something
// else than the editor holds, so typing is never reformatted under the cursor.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';

/** Fired with the editor's text after each edit. */
export const JSON_INPUT = 'ql-json-input';

/** `text` parsed and written back as the console writes JSON, or undefined when it is not JSON. */
function normalized(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

@customElement('ql-json-editor')
export class QlJsonEditor extends LitElement {
  /** The JSON to show (indented); replaces the text when it means something else. */
  @property() value = '';
  /** The editor's accessible name. */
  @property() label = 'JSON';
  private view: EditorView | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override firstUpdated(): void {
    this.mount();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.mount();
  }

  private mount(): void {
    if (this.view !== undefined) return;
    this.view = new EditorView({
      doc: this.value,
      parent: this,
      extensions: [
        // basicSetup without autocompletion and search (an entity is short JSON): 60 kB less.
        lineNumbers(),
        foldGutter(),
        history(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        json(),
        linter(jsonParseLinter()),
        lintGutter(),
        EditorView.contentAttributes.of({ 'aria-label': this.label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) this.dispatchEvent(new CustomEvent(JSON_INPUT, { detail: update.state.doc.toString(), bubbles: true }));
        }),
      ],
    });
  }

  protected override updated(): void {
    const view = this.view;
    if (view === undefined) return;
    const text = view.state.doc.toString();
    if (normalized(text) !== this.value) view.dispatch({ changes: { from: 0, to: text.length, insert: this.value } });
  }

  override disconnectedCallback(): void {
    this.view?.destroy();
    this.view = undefined;
    super.disconnectedCallback();
  }
}
