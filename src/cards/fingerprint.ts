/** What tells two encryptions of one card apart from two cards, for an Idempotency-Key to compare. */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import type { ClearCard } from '.';

/**
 * Keyed hashes of a card (HMAC-SHA256 under CARD_FINGERPRINT_KEY): equal for the same card however
 * often it is encrypted, and useless to whoever reads them without that key (a plain hash of a
 * card number is brute-forced in minutes: BIN and last four leave about 10^7 candidates). The key
 * is this hash's alone: a copy of the database with any other secret (the JWT secret signs tokens,
 * and rotating it must not change a card's fingerprint) still cannot test candidate numbers.
 *
 * The whole card is hashed, holder and CVV included: a request with another CVV or holder is
 * another request (a retry sends the same card), yet neither is ever kept in the clear.
 */
export function cardFingerprint(card: ClearCard, key: string | Buffer = getConfig().cardFingerprint.key): string {
  // A JSON array: no field's content can pass for a separator (a holder may contain any character).
  const fields = [card.number, card.expMonth, card.expYear, card.holder, card.cvv];
  return crypto.createHmac('sha256', key).update(JSON.stringify(fields)).digest('hex');
}

/**
 * The card's fingerprint under each key in use, the current key's first: during a rotation
 * (CARD_FINGERPRINT_PREVIOUS_KEY, docs/cards.md) a key used before it still recognises its card.
 */
export function cardFingerprints(card: ClearCard): string[] {
  const { key, previousKey } = getConfig().cardFingerprint;
  return previousKey ? [cardFingerprint(card, key), cardFingerprint(card, previousKey)] : [cardFingerprint(card, key)];
}

/**
 * What makes two saves of a card one saved card: the number and the expiry, under the same key (labelled, so it never
 * equals a request's fingerprint above). Not the holder (a payer types it differently from one save to the next) and
 * not the CVV: a saved card's fingerprint is kept as long as the card, and no form of the CVV may be kept after the
 * check it was sent for (PCI DSS 3.3.1.2). A card the issuer reissues with a new expiry is another saved card.
 */
export function savedCardFingerprint(
  card: Pick<ClearCard, 'number' | 'expMonth' | 'expYear'>,
  key: string | Buffer = getConfig().cardFingerprint.key,
): string {
  const fields = ['saved-card', card.number, card.expMonth, card.expYear];
  return crypto.createHmac('sha256', key).update(JSON.stringify(fields)).digest('hex');
}

/** savedCardFingerprint under each key in use, the current key's first (a rotation: docs/cards.md). */
export function savedCardFingerprints(card: Pick<ClearCard, 'number' | 'expMonth' | 'expYear'>): string[] {
  const { key, previousKey } = getConfig().cardFingerprint;
  return [key, ...(previousKey ? [previousKey] : [])].map((each) => savedCardFingerprint(card, each));
}
