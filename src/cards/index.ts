/**
 * Cards arrive encrypted with our RSA public key, PKCS#1 v1.5 padding (the spec fixes it), as
 * base64 of the encrypted JSON {"number","holder","expMonth","expYear","cvv"}.
 *
 * Node 20's crypto refuses PKCS#1 v1.5 decryption (Marvin attack, CVE-2023-46809) unless run
 * with a security revert flag, which we do not use, and node-forge's pure-JS RSA costs 75-200 ms
 * of event-loop CPU per card. So ./pkcs1 does the raw RSA natively and removes the padding in
 * constant time with implicit rejection (see there). Every failure to decrypt or parse gives the
 * same error (no padding oracle). node-forge stays for encryptCard. The clear card lives only in
 * memory long enough to reach the acquirer: we keep brand, BIN and last four.
 */
import forge from 'node-forge';
import { getConfig } from '../../config';
import { loadRsaDecryptionKey, rsaDecryptPkcs1, type RsaDecryptionKey } from './pkcs1';

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

export type CardBrand = 'Visa' | 'Master' | 'Amex' | 'Elo' | 'Hipercard' | 'Diners' | 'Discover' | 'JCB' | 'Aura' | 'Unknown';

/** One message for every decryption or parsing failure, so the answer tells an attacker nothing. */
export const UNDECRYPTABLE_CARD = 'The card could not be read. Encrypt it with the service public key (RSA, PKCS#1 v1.5).';

export class CardError extends Error {
  constructor(
    readonly field: 'encrypted_card' | 'number' | 'expiry' | 'cvv' | 'holder',
    message: string,
  ) {
    super(message);
  }
}

let decryptionKey: RsaDecryptionKey | undefined;

function getDecryptionKey(): RsaDecryptionKey {
  decryptionKey ??= loadRsaDecryptionKey(getConfig().cardKeys.privateKeyPem);
  return decryptionKey;
}

/** Strict UTF-8: invalid bytes (e.g. an implicit-rejection message) are an error, not U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function publicKeyPem(): string {
  return getConfig().cardKeys.publicKeyPem;
}

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

export function cardBrand(number: string): CardBrand {
  if (/^(4011(78|79)|43(1274|8935)|45(1416|7393|763(1|2))|50(4175|6699|67[0-7][0-9]|9000)|627780|63(6297|6368)|650(03[1-3]|04[0-9]|05[0-1]|4[0-3][0-9]|48[5-9]|49[0-9]|5[0-2][0-9]|53[0-8]|90[1-9]|9[1-6][0-9]|97[0-8])|6516(5[2-9]|[6-7][0-9])|6550([0-1][0-9]|2[1-5]))/.test(number)) return 'Elo';
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

/** Decrypts and validates a card. Throws CardError naming the field at fault. */
export function decryptCard(encryptedBase64: unknown, now = new Date()): ClearCard {
  let card: ClearCard;
  try {
    if (typeof encryptedBase64 !== 'string' || !/^[A-Za-z0-9+/=\s]+$/.test(encryptedBase64)) throw new Error('shape');
    // Bad padding does not throw here: it yields a pseudo-random message (implicit rejection)
    // that fails the parsing below, so every undecryptable card ends in the same error.
    const plain = rsaDecryptPkcs1(getDecryptionKey(), Buffer.from(encryptedBase64.replace(/\s/g, ''), 'base64'));
    const parsed: unknown = JSON.parse(utf8.decode(plain));
    // A bare number or string is not a card (and random bytes like "7" would otherwise reach
    // the card-number check and answer with a different field).
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('shape');
    const fields = parsed as Record<string, unknown>;
    card = {
      number: String(fields.number ?? '').replace(/[\s-]/g, ''),
      holder: String(fields.holder ?? '').trim(),
      expMonth: Number(fields.expMonth),
      expYear: Number(fields.expYear),
      cvv: String(fields.cvv ?? ''),
    };
  } catch {
    throw new CardError('encrypted_card', UNDECRYPTABLE_CARD);
  }
  if (!luhnValid(card.number)) throw new CardError('number', 'Invalid card number.');
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12 || !Number.isInteger(card.expYear)) {
    throw new CardError('expiry', 'Invalid expiry date.');
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  card.expYear = year;
  const endOfMonth = Date.UTC(year, card.expMonth, 1);
  if (endOfMonth <= now.getTime()) throw new CardError('expiry', 'The card has expired.');
  const cvvLength = cardBrand(card.number) === 'Amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv)) throw new CardError('cvv', `The security code must have ${cvvLength} digits.`);
  if (!card.holder || card.holder.length > 25) throw new CardError('holder', 'The card holder name is required (at most 25 characters).');
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

/** Encrypts a card the way callers and the checkout page do (tests, the CLI and the bench use it). */
export function encryptCard(card: Omit<ClearCard, 'expYear'> & { expYear: number }, publicPem = publicKeyPem()): string {
  const key = forge.pki.publicKeyFromPem(publicPem) as forge.pki.rsa.PublicKey;
  return forge.util.encode64(key.encrypt(forge.util.encodeUtf8(JSON.stringify(card)), 'RSAES-PKCS1-V1_5'));
}
