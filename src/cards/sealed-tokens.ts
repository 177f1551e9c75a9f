/**
 * The acquirer's token of a saved card, encrypted at rest. A token is as good as the card to whoever holds it with
 * our MerchantKey (it charges the card without the number or the CVV), yet we must read it back to charge the card
 * later, so a hash (what `online_sale_cards` keeps of a bearer `card_token`, which the partner holds for us) will
 * not do: it is sealed with AES-256-GCM under SAVED_CARD_TOKEN_KEY, a key used for nothing else, and bound to the
 * document it is stored in (the GCM additional data), so a sealed token copied onto another card or customer does
 * not open.
 *
 * Format: `v1.<key id>.<iv>.<ciphertext>.<tag>`, base64url parts. The key id (8 hex of a hash of the key) says
 * which key sealed it, so during a rotation (SAVED_CARD_TOKEN_PREVIOUS_KEY) tokens sealed under the previous key
 * still open; it reveals nothing of the key.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';

const VERSION = 'v1';
const IV_BYTES = 12;

interface TokenKey {
  id: string;
  key: Buffer;
}

/**
 * The AES key of a configured secret: HKDF-SHA256 with this use as its label, so any string of 32 characters or
 * more gives a full-strength 256-bit key, and the same secret could never give the key of another use.
 */
function tokenKeyOf(secret: string): TokenKey {
  const key = Buffer.from(crypto.hkdfSync('sha256', secret, '', 'saved-card-token/aes-256-gcm', 32));
  return { id: crypto.createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

const derived = new Map<string, TokenKey>();

function keyFor(secret: string): TokenKey {
  let known = derived.get(secret);
  if (!known) {
    known = tokenKeyOf(secret);
    derived.set(secret, known);
  }
  return known;
}

function keys(): { current: TokenKey; previous?: TokenKey } {
  const { key, previousKey } = getConfig().savedCardTokens;
  return { current: keyFor(key), previous: previousKey ? keyFor(previousKey) : undefined };
}

/** The sealed form of `token` for the document `boundTo` names (its `_id`): only that document's reader opens it. */
export function sealCardToken(token: string, boundTo: string): string {
  const { current } = keys();
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, current.id, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** A sealed token that cannot be opened: a key no longer configured, another document's token, or altered bytes. */
export class SealedTokenError extends Error {
  constructor(reason: string) {
    super(`saved card token cannot be opened: ${reason}`);
    this.name = 'SealedTokenError';
  }
}

/** The token `sealCardToken` sealed for the document `boundTo`. Throws SealedTokenError, never a partial token. */
export function openCardToken(sealed: string, boundTo: string): string {
  const [version, keyId, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || rest.length || !tag) throw new SealedTokenError('not a sealed token');
  const { current, previous } = keys();
  const key = [current, previous].find((candidate) => candidate?.id === keyId);
  if (!key) throw new SealedTokenError(`sealed under key ${keyId}, which is not configured`);
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedTokenError('altered, or sealed for another document');
  }
}
