/**
 * The card encryption keys: the current pair (what callers encrypt with) and, during a rotation,
 * the previous private key, accepted until a configured time so that callers who cached the old
 * public key keep working (docs/cards.md, Key rotation).
 *
 * A key is named by its `kid`: the RFC 7638 JWK thumbprint (SHA-256, base64url) of its public
 * key. Derived, not configured, so it cannot disagree with the key, and any party holding the
 * public key can compute it.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { loadRsaDecryptionKey, type RsaDecryptionKey } from './pkcs1';

export interface CardDecryptionKey {
  kid: string;
  rsa: RsaDecryptionKey;
  /** Undefined for the current key; the previous key is refused from this time on. */
  acceptedUntil?: Date;
}

export interface CardKeyRing {
  current: CardDecryptionKey & { publicKeyPem: string; modulusBits: number };
  previous?: CardDecryptionKey & { acceptedUntil: Date };
}

/** RFC 7638: SHA-256 over the required JWK members of an RSA key, in lexicographic order, no spaces. */
export function keyIdOf(key: crypto.KeyObject | string): string {
  const publicKey = crypto.createPublicKey(key);
  const { e, n } = publicKey.export({ format: 'jwk' });
  return crypto
    .createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

let ring: CardKeyRing | undefined;

export function cardKeyRing(): CardKeyRing {
  if (ring) return ring;
  const { privateKeyPem, publicKeyPem, previous } = getConfig().cardKeys;
  const rsa = loadRsaDecryptionKey(privateKeyPem);
  ring = {
    current: {
      kid: keyIdOf(publicKeyPem),
      rsa,
      publicKeyPem,
      modulusBits: rsa.key.asymmetricKeyDetails!.modulusLength!,
    },
    previous: previous && {
      kid: keyIdOf(previous.privateKeyPem),
      rsa: loadRsaDecryptionKey(previous.privateKeyPem),
      acceptedUntil: previous.acceptedUntil,
    },
  };
  return ring;
}

/**
 * The keys a card may be encrypted with at `now`: the current one, and the previous one until its
 * end. Which keys these are depends on the configuration and the clock only, never on the card.
 */
export function acceptedKeys(now: Date): CardDecryptionKey[] {
  const { current, previous } = cardKeyRing();
  return previous && now.getTime() < previous.acceptedUntil.getTime() ? [current, previous] : [current];
}
