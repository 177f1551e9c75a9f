/** The one thing kept that tells two encryptions of a card apart from two cards. */
import crypto from 'node:crypto';
import { getConfig } from '../../config';

/**
 * A keyed hash of a card's number and expiry: equal for the same card however often it is
 * encrypted, and useless to whoever reads it without the server's secret (a plain hash of a card
 * number is brute-forced in minutes). Never stored beside anything that would reveal the number.
 * The key is derived from the JWT secret, a server secret every deployment has (HKDF, with its own
 * label, so neither use can stand for the other).
 */
export function cardFingerprint(card: { number: string; expMonth: number; expYear: number }): string {
  return crypto
    .createHmac('sha256', fingerprintKey())
    .update(`${card.number}|${card.expMonth}|${card.expYear}`)
    .digest('hex');
}

let derivedKey: { secret: string; key: Buffer } | null = null;
function fingerprintKey(): Buffer {
  const secret = getConfig().jwt.secret;
  if (derivedKey?.secret !== secret) {
    const key = Buffer.from(crypto.hkdfSync('sha256', secret, 'idempotency', 'card-fingerprint', 32));
    derivedKey = { secret, key };
  }
  return derivedKey.key;
}
