/**
 * Cards arrive encrypted with our RSA public key, PKCS#1 v1.5 padding (the spec fixes it), as
 * base64 of the encrypted UTF-8 JSON {"number","holder","expMonth","expYear","cvv"} (types: see
 * CARD_FIELDS and docs/cards.md). The key is served at GET /api/v1/cards/public-key/ with its kid.
 *
 * Node 20's crypto refuses PKCS#1 v1.5 decryption (Marvin attack, CVE-2023-46809) unless run
 * with a security revert flag, which we do not use, and node-forge's pure-JS RSA costs 75-200 ms
 * of event-loop CPU per card. So ./pkcs1 does the raw RSA natively and removes the padding in
 * constant time with implicit rejection (see there). Every failure to decrypt or parse gives the
 * same error (no padding oracle), whichever key it was tried with. Encrypting with PKCS#1 v1.5 is
 * not refused by Node, so encryptCard is native. The clear card lives only in memory long enough
 * to reach the acquirer: we keep brand, BIN and last four.
 */
import crypto from 'node:crypto';
import { rsaDecryptPkcs1 } from './pkcs1';
import { acceptedKeys, cardKeyRing } from './keys';

export interface ClearCard {
  number: string;
  holder: string;
  expMonth: number;
  expYear: number;
  cvv: string;
}

/** What we may keep about a card. */
export interface CardSummary {
  brand: CardBrand;
  bin: string;
  last4: string;
  holder: string;
  expMonth: number;
  expYear: number;
}

export type CardBrand =
  'Visa' | 'Master' | 'Amex' | 'Elo' | 'Hipercard' | 'Diners' | 'Discover' | 'JCB' | 'Aura' | 'Unknown';

/** One message for every decryption or parsing failure, so the answer tells an attacker nothing. */
export const UNDECRYPTABLE_CARD =
  'The card could not be read. Encrypt it with the service public key (RSA, PKCS#1 v1.5).';

export class CardError extends Error {
  constructor(
    readonly field: 'encrypted_card' | 'number' | 'expiry' | 'cvv' | 'holder',
    message: string,
  ) {
    super(message);
  }
}

/** Strict UTF-8: invalid bytes (e.g. an implicit-rejection message) are an error, not U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The public key callers encrypt cards with (PEM, SPKI). */
export function publicKeyPem(): string {
  return cardKeyRing().current.publicKeyPem;
}

/** The kid of publicKeyPem(): it changes when the key is rotated. */
export function publicKeyId(): string {
  return cardKeyRing().current.kid;
}

/**
 * What the card JSON may hold, exactly. A card number or CVV sent as a JSON number is refused: a
 * 19-digit number is beyond a double's precision and a CVV like 012 would lose its zero.
 */
export const CARD_FIELDS = {
  number: 'string: 12 to 19 digits passing the Luhn check; spaces and hyphens are ignored',
  holder: 'string: the name printed on the card, 1 to 25 characters after trimming',
  expMonth: 'integer 1 to 12, as a JSON number (12) or a string of 1 or 2 digits ("05")',
  expYear:
    'integer, 4 digits (2031) or 2 digits meaning 20YY (31), as a JSON number or a string of digits; the card ' +
    'is valid through the end of that month',
  cvv: 'string: 3 digits (4 for Amex)',
} as const;

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Elo's BIN ranges, one alternative per line (Elo shares prefixes with Visa and Discover: tested first). */
const ELO_BINS = [
  '4011(78|79)',
  '43(1274|8935)',
  '45(1416|7393|763(1|2))',
  '50(4175|6699|67[0-7][0-9]|9000)',
  '627780',
  '63(6297|6368)',
  '650(03[1-3]|04[0-9]|05[0-1]|4[0-3][0-9]|48[5-9]|49[0-9]|5[0-2][0-9]|53[0-8]|90[1-9]|9[1-6][0-9]|97[0-8])',
  '6516(5[2-9]|[6-7][0-9])',
  '6550([0-1][0-9]|2[1-5])',
];
const ELO_BIN = new RegExp(`^(${ELO_BINS.join('|')})`);

export function cardBrand(number: string): CardBrand {
  if (ELO_BIN.test(number)) return 'Elo';
  if (/^(606282|3841)/.test(number)) return 'Hipercard';
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'Master';
  if (/^3[47]/.test(number)) return 'Amex';
  if (/^3(0[0-5]|[68])/.test(number)) return 'Diners';
  if (/^6(011|5)/.test(number)) return 'Discover';
  if (/^35/.test(number)) return 'JCB';
  if (/^50/.test(number)) return 'Aura';
  return 'Unknown';
}

/** The card object inside a decrypted block, or undefined when the block is not one. */
function parseCardObject(plain: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(utf8.decode(plain));
    // A bare number or string is not a card (and random bytes like "7" would otherwise reach
    // the card-number check and answer with a different field).
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  } finally {
    plain.fill(0);
  }
}

/**
 * The card object of a ciphertext, tried with every accepted key. During a rotation both keys
 * decrypt and both results are parsed, always, in the same order: the work does not depend on
 * which key (if any) the card was encrypted with, and every failure ends in the same error.
 * Bad padding does not throw (implicit rejection gives a pseudo-random block that fails parsing).
 */
function decryptCardObject(encryptedBase64: unknown, now: Date): Record<string, unknown> {
  if (typeof encryptedBase64 !== 'string' || !/^[A-Za-z0-9+/=\s]+$/.test(encryptedBase64))
    throw new CardError('encrypted_card', UNDECRYPTABLE_CARD);
  const ciphertext = Buffer.from(encryptedBase64.replace(/\s/g, ''), 'base64');
  const found = acceptedKeys(now).map((key) => {
    let plain: Buffer;
    try {
      plain = rsaDecryptPkcs1(key.rsa, ciphertext);
    } catch {
      return undefined; // only for what is public: a length or value that does not fit this key
    }
    return parseCardObject(plain);
  });
  const fields = found.find(Boolean);
  if (!fields) throw new CardError('encrypted_card', UNDECRYPTABLE_CARD);
  return fields;
}

/**
 * An integer given as a JSON number or a string of digits (e.g. "05"), with the digits allowed; NaN for anything else.
 */
function integerField(value: unknown, digits: RegExp): number {
  if (typeof value === 'number') return Number.isInteger(value) && digits.test(String(value)) ? value : NaN;
  if (typeof value === 'string' && digits.test(value)) return Number(value);
  return NaN;
}

/** Decrypts and validates a card. Throws CardError naming the field at fault. */
export function decryptCard(encryptedBase64: unknown, now = new Date()): ClearCard {
  const fields = decryptCardObject(encryptedBase64, now);
  if (typeof fields.number !== 'string')
    throw new CardError('number', 'The card number must be a JSON string of digits.');
  const card: ClearCard = {
    number: fields.number.replace(/[\s-]/g, ''),
    holder: typeof fields.holder === 'string' ? fields.holder.trim() : '',
    expMonth: integerField(fields.expMonth, /^\d{1,2}$/),
    expYear: integerField(fields.expYear, /^(\d{2}|\d{4})$/),
    cvv: typeof fields.cvv === 'string' ? fields.cvv : '',
  };
  if (!luhnValid(card.number)) throw new CardError('number', 'Invalid card number.');
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12 || !Number.isInteger(card.expYear)) {
    throw new CardError('expiry', 'Invalid expiry date.');
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  card.expYear = year;
  const endOfMonth = Date.UTC(year, card.expMonth, 1);
  if (endOfMonth <= now.getTime()) throw new CardError('expiry', 'The card has expired.');
  const cvvLength = cardBrand(card.number) === 'Amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv))
    throw new CardError('cvv', `The security code must be a string of ${cvvLength} digits.`);
  if (!card.holder || card.holder.length > 25)
    throw new CardError('holder', 'The card holder name is required (at most 25 characters).');
  return card;
}

export function summarizeCard(card: ClearCard): CardSummary {
  return {
    brand: cardBrand(card.number),
    bin: card.number.slice(0, 6),
    last4: card.number.slice(-4),
    holder: card.holder,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
}

/**
 * Encrypts a card the way callers and the checkout page do (tests, the CLI and the bench use it):
 * RSAES-PKCS1-v1_5 with the public key, base64. Node refuses only PKCS#1 v1.5 DEcryption.
 */
export function encryptCard(card: ClearCard | Record<string, unknown>, publicPem = publicKeyPem()): string {
  return crypto
    .publicEncrypt(
      { key: publicPem, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from(JSON.stringify(card), 'utf8'),
    )
    .toString('base64');
}
