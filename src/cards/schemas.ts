/** The public-key answer, declared once (src/http/schema.ts): its Swagger definition and its type. */
import { definition, field, nullable, required, type ValueOf } from '../http/schema';

export const CARD_ENCRYPTION = 'RSAES-PKCS1-v1_5';

export const cardPublicKey = definition(
  'CardPublicKey',
  field.object({
    kid: required(field.string()).description(
      'Key id: the RFC 7638 JWK thumbprint (SHA-256, base64url) of the key. A new kid means the key was ' +
        'rotated: fetch it again.',
    ),
    algorithm: required(field.oneOf([CARD_ENCRYPTION])).description('Encrypt with RSA PKCS#1 v1.5 padding (not OAEP)'),
    key_size: required(field.number().integer()).description('Modulus length in bits'),
    public_key: required(field.string()).description('The RSA public key, PEM (SPKI, "BEGIN PUBLIC KEY")'),
    previous_kid: required(nullable(field.string())).description(
      'During a rotation, the replaced key, still accepted until previous_accepted_until; else null',
    ),
    previous_accepted_until: required(nullable(field.dateTime())).description(
      'When cards encrypted with the previous key stop being accepted; null when none is',
    ),
  }),
);

export type CardPublicKeyAnswer = ValueOf<typeof cardPublicKey>;
