/** Swagger text of the card public-key route; the answer's definition comes from schemas.ts. */
import type { SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { CARD_FIELDS } from '.';
import { cardPublicKey } from './schemas';

/** How long a caller may keep the key: far below the rotation overlap (docs/cards.md). */
export const PUBLIC_KEY_MAX_AGE_SECONDS = 3600;

export const tag = {
  name: 'cards',
  description:
    'The public key that encrypts cards (encrypted_card of sales, subscriptions and the checkout). No credential.',
};

export const definitions = swaggerDefinitions(cardPublicKey);

export const docs = {
  getCardPublicKey: {
    operationId: 'getCardPublicKey',
    summary: 'The public key to encrypt cards with',
    description:
      'encrypted_card = base64(RSAES-PKCS1-v1_5(public_key, UTF-8 JSON of the card)). The card JSON: ' +
      Object.entries(CARD_FIELDS)
        .map(([name, meaning]) => `${name}: ${meaning}`)
        .join('; ') +
      ('. Cards encrypted with a previous key are accepted until previous_accepted_until (at least 7 days ' +
        'after a rotation); ') +
      `the answer may be cached ${PUBLIC_KEY_MAX_AGE_SECONDS} s. Examples for Node and openssl: docs/cards.md.`,
    responses: { 200: { description: 'The current key', schema: swaggerRef(cardPublicKey) } },
  },
} satisfies Record<string, SwaggerOperation>;
