// The Questline UI blocks (SPEC §14), one ES module served at /elements/questline.js. Importing it
// defines every element; a page then uses them with base-url, user-id and a user-level token.
import { QlPoints } from './points.js';

export { QuestlineElement, QuestlineError } from './base.js';

const elements: Record<string, CustomElementConstructor> = {
  'ql-points': QlPoints,
};

for (const [name, element] of Object.entries(elements)) {
  if (customElements.get(name) === undefined) customElements.define(name, element);
}
