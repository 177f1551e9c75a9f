/** Swagger text of the card public-key route. */
import type { SwaggerOperation } from '../http/routes';
import { CARD_FIELDS } from '.';

/** How long a caller may keep the key: far below the rotation overlap (docs/cards.md). */
export const PUBLIC_KEY_MAX_AGE_SECONDS = 3600;

export const CARD_ENCRYPTION = 'RSAES-PKCS1-v1_5';

export const tag = {
  name: 'cards',
  description:
    'The public key that encrypts cards (encrypted_card of sales, subscriptions and the checkout). No credential.',
};

export const definitions = {
  CardPublicKey: {
    type: 'object',
    required: ['kid', 'algorithm', 'key_size', 'public_key', 'previous_kid', 'previous_accepted_until'],
    properties: {
      kid: {
        type: 'string',
        description:
          'Key id: the RFC 7638 JWK thumbprint (SHA-256, base64url) of the key. A new kid means the key was ' +
          'rotated: fetch it again.',
      },
      algorithm: {
        type: 'string',
        enum: [CARD_ENCRYPTION],
        description: 'Encrypt with RSA PKCS#1 v1.5 padding (not OAEP)',
      },
      key_size: { type: 'integer', description: 'Modulus length in bits' },
      public_key: { type: 'string', description: 'The RSA public key, PEM (SPKI, "BEGIN PUBLIC KEY")' },
      previous_kid: {
        type: 'string',
        'x-nullable': true,
        description: 'During a rotation, the replaced key, still accepted until previous_accepted_until; else null',
      },
      previous_accepted_until: {
        type: 'string',
        format: 'date-time',
        'x-nullable': true,
        description: 'When cards encrypted with the previous key stop being accepted; null when none is',
      },
    },
  },
};

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
    responses: { 200: { description: 'The current key', schema: { $ref: '#/definitions/CardPublicKey' } } },
  },
} satisfies Record<string, SwaggerOperation>;
