// Ids of rows and events: UUIDv7 (time-ordered), from uuidv7's generator with a larger buffer of
// random words. The library's default refills 8 words from crypto.getRandomValues at a time: on
// the action path, which makes several ids per action, that was about 10 µs an action in Node's
// random job (a profile of `npm run bench`); 1,024 words at a time make it one call per few
// hundred ids. Every id in src/ comes from here (lint: no-restricted-imports).
import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

const WORDS = 1024;

class BufferedRandom {
  readonly #buffer = new Uint32Array(WORDS);
  #cursor = WORDS;

  nextUint32(): number {
    if (this.#cursor >= WORDS) {
      randomFillSync(this.#buffer);
      this.#cursor = 0;
    }
    return this.#buffer[this.#cursor++] as number;
  }
}

const generator = new V7Generator(new BufferedRandom());

/** A new UUIDv7, canonical form: later ids of this process sort after earlier ones. */
export function uuidv7(): string {
  return generator.generate().toString();
}
