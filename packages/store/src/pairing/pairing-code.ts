import { randomInt } from 'node:crypto';

/** The characters of a pairing code: no 0/O, 1/I/L, so a code read aloud or copied by hand survives. */
export const PAIRING_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Characters in a pairing code (31^8 ≈ 8.5·10^11 codes). */
export const PAIRING_CODE_LENGTH = 8;

/** A uniform random integer in [0, max): `crypto.randomInt` unless a test injects its own. */
export type RandomInt = (max: number) => number;

/** The default random source: cryptographically secure and unbiased. */
export const secureRandomInt: RandomInt = (max) => randomInt(max);

/** A fresh pairing code: PAIRING_CODE_LENGTH characters of PAIRING_ALPHABET drawn from `random`. */
export function newPairingCode(random: RandomInt = secureRandomInt): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_ALPHABET[random(PAIRING_ALPHABET.length)] ?? '';
  if (code.length !== PAIRING_CODE_LENGTH) throw new RangeError('random source returned a value out of range');
  return code;
}

/** A code as typed by a user, in stored form: surrounding whitespace dropped, upper-cased (approve is case-insensitive). */
export function normalizePairingCode(code: string): string {
  return code.trim().toUpperCase();
}
