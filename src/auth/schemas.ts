/**
 * The auth bodies, each declared once (src/http/schema.ts): the Swagger definitions and the types.
 * The token routes read their two body fields by hand rather than through celebrate: any failure, a
 * missing or non-string field included, is the same 401, so there is no field map to give.
 */
import type { Request } from 'express';
import { definition, field, nullable, required, swaggerOnly, type ValueOf } from '../http/schema';

export const TOKEN_FAILURE = { detail: 'No active account found with the given credentials.' } as const;
export const REFRESH_FAILURE = { detail: 'Token is invalid or expired.' } as const;

export function bodyField(req: Request, name: string): unknown {
  const body: unknown = req.body;
  const value =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
  // A NUL cannot be in any e-mail, password or token of ours (nor stored by PostgreSQL): a plain failure, 401.
  return typeof value === 'string' && value.includes('\u0000') ? undefined : value;
}

export const tokenRequest = definition(
  'TokenRequest',
  field.object({
    username: required(field.string())
      .description('The complete e-mail of the user (case-insensitive); the short login name is not accepted')
      .example('owner@loja.com.br'),
    password: swaggerOnly(required(field.string()), { format: 'password' }),
  }),
);

export const tokenPair = definition(
  'TokenPair',
  field.object({
    access: required(field.string()).description('Access token (JWT), sent as Authorization: Bearer <access>'),
    refresh: required(field.string()).description(
      'Refresh token (JWT). Not rotated by refresh: it stays valid until it expires',
    ),
  }),
);

export type TokenPair = ValueOf<typeof tokenPair>;

export const refreshRequest = definition(
  'RefreshRequest',
  field.object({ refresh: required(field.string()).description('The refresh token of a token pair') }),
);

export const accessToken = definition(
  'AccessToken',
  field.object({ access: required(field.string()).description('A new access token (JWT)') }),
);

export type AccessTokenAnswer = ValueOf<typeof accessToken>;

/** The /me answer: the identity a credential stands for. */
export const me = definition(
  'Me',
  field
    .object({
      id: required(nullable(field.number().integer())).description('Merchant id'),
      company_name: required(nullable(field.string())),
      username: required(nullable(field.string())).description(
        "Short login name (not the e-mail): the user's own for a JWT; the merchant's first user for a " +
          'merchant token or the system token naming a merchant; null for the system token alone',
      ),
      email: required(nullable(field.string())).description('E-mail of the same user'),
      role: required(field.oneOf(['merchant', 'staff', 'system'])),
      credential: required(field.oneOf(['jwt', 'merchant_token', 'system'])).description(
        'Kind of credential the request carried',
      ),
      allow_void_on_confirmed: required(nullable(field.boolean())).description(
        'Whether cancel-capture may refund a CONFIRMED sale',
      ),
      // Text, not numbers: an EC has up to 20 digits, past what a JSON number keeps exactly (2^53).
      establishment_numbers: required(nullable(field.array(field.string()))).description(
        'Acquirer establishment numbers (EC) of the merchant, as digit strings without leading zeros; the ' +
          'chargeback routes take each as it is (text or number). null without a merchant',
      ),
    })
    .description(
      'The merchant bound to the credential. Merchant fields are null for a staff user and for the system ' +
        'token without X-Merchant-Id.',
    ),
);

export type Profile = ValueOf<typeof me>;
