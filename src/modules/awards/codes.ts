// On-the-spot codes (SPEC §11): 80 random bits each, shown once and stored as their SHA-256 only.
import { createHash, randomBytes } from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH } from '../../engine/elements/awards.js';

export function newCode(): string {
  let bits = 0n;
  for (const byte of randomBytes(10)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) {
    code = CODE_ALPHABET.charAt(Number(bits & 31n)) + code;
    bits >>= 5n;
  }
  return code.match(/.{4}/g)?.join('-') ?? code;
}

/** What is stored of a normalized code. 80 random bits need no slow hash: they cannot be guessed offline either. */
export function codeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}
