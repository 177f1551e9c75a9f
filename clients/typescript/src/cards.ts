/**
 * Card encryption, the step every card payment needs: encrypted_card (pre-capture, checkout pay) and
 * encryptedCard (subscriptions) are base64(RSAES-PKCS1-v1_5(public key, UTF-8 JSON of the card)).
 * The key comes from getCardPublicKey (no credential) and is kept for as long as the service says it
 * may be cached; a rotation gives it a new kid, and the previous key stays accepted for days after.
 */
import crypto from 'node:crypto';
import type { RequestOptions } from './transport';
import type { CardPublicKey } from './generated-types';
import { GeneratedCardsApi } from './generated-operations';

/** The card JSON the service decrypts (docs/cards.md). */
export interface Card {
  /** 12 to 19 digits passing the Luhn check, as a string (spaces and hyphens are ignored). */
  number: string;
  /** The name printed on the card, 1 to 25 characters. */
  holder: string;
  /** 1 to 12, as a number or a string of 1 or 2 digits ("05"). */
  expMonth: number | string;
  /** 4 digits (2031) or 2 digits meaning 20YY, as a number or a string of digits. */
  expYear: number | string;
  /** 3 digits (4 for Amex), as a string: a number would lose a leading zero. */
  cvv: string;
}

/** How long a fetched key is used before it is asked again: the max-age the key route answers with. */
export const CARD_KEY_MAX_AGE_MS = 3600_000;

/** Encrypts a card with a public key (PEM) you already hold. Node refuses PKCS#1 v1.5 only for decryption. */
export function encryptCardWithKey(card: Card, publicKeyPem: string): string {
  if (typeof card.number !== 'string' || typeof card.cvv !== 'string')
    throw new TypeError('card number and cvv must be strings (a number loses digits and leading zeros)');
  return crypto
    .publicEncrypt(
      { key: publicKeyPem, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from(JSON.stringify(card), 'utf8'),
    )
    .toString('base64');
}

export interface EncryptedCard {
  /** The value of encrypted_card / encryptedCard. */
  encryptedCard: string;
  /** The kid of the key it was encrypted with. */
  kid: string;
}

/** client.cards: the generated group (getCardPublicKey) with card encryption on top. */
export class CardsApi extends GeneratedCardsApi {
  private cachedKey?: { key: CardPublicKey; fetchedAt: number };

  /** The current public key, fetched once and kept for CARD_KEY_MAX_AGE_MS (refresh: true asks again). */
  async currentCardKey(options: RequestOptions & { refresh?: boolean } = {}): Promise<CardPublicKey> {
    const cached = this.cachedKey;
    if (!options.refresh && cached && Date.now() - cached.fetchedAt < CARD_KEY_MAX_AGE_MS) return cached.key;
    const key = await this.getCardPublicKey(options);
    this.cachedKey = { key, fetchedAt: Date.now() };
    return key;
  }

  /** encrypted_card for pre-capture and checkout pay, encryptedCard for subscriptions. */
  async encryptCard(card: Card, options?: RequestOptions & { refresh?: boolean }): Promise<string> {
    return (await this.encryptCardWithKeyId(card, options)).encryptedCard;
  }

  /** The same, with the kid of the key used (to log which key a card went out under). */
  async encryptCardWithKeyId(card: Card, options?: RequestOptions & { refresh?: boolean }): Promise<EncryptedCard> {
    const key = await this.currentCardKey(options);
    return { encryptedCard: encryptCardWithKey(card, key.public_key), kid: key.kid };
  }
}

/**
 * The name of the encrypting base before the generated code was split (version 1.0 exported it): still
 * exported so that code naming it keeps compiling; it is client.cards' class.
 */
export { CardsApi as CardEncryption };
