/** Swagger text of the auth routes: shared answers and each operation; the bodies' definitions come from schemas.ts. */
import { getConfig } from '../../config';
import { errorDetail } from '../http/error-bodies';
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { accessToken, me, REFRESH_FAILURE, refreshRequest, TOKEN_FAILURE, tokenPair, tokenRequest } from './schemas';

function lifetimes(): string {
  const { accessTtlSeconds, refreshTtlSeconds } = getConfig().jwt;
  return (
    `Access tokens live ${accessTtlSeconds} s (JWT_ACCESS_TTL_SECONDS, default 900 = 15 min); refresh tokens ` +
    `${refreshTtlSeconds} s (JWT_REFRESH_TTL_SECONDS, default 604800 = 7 days). Both are HS256 JWTs.`
  );
}

function rateLimitNote(): string {
  const { limit, windowSeconds } = getConfig().tokenRateLimit;
  return (
    `Rate limited per client IP: ${limit} requests per ${windowSeconds} s window, started by the first request ` +
    `(TOKEN_RATE_LIMIT, TOKEN_RATE_WINDOW_SECONDS), counted separately for token and refresh and shared by every ` +
    `web process. Over the limit: 429 with Retry-After.`
  );
}

function passwordBudgetNote(): string {
  const config = getConfig();
  const { limit, windowSeconds } = config.passwordAccountRateLimit;
  const pair = config.passwordConsecutiveFailures;
  const address = config.passwordAddressFailures;
  return (
    `This route's per-IP count is also that IP's budget of password checks, which basic auth on /admin/queues ` +
    `and /metrics spends too. Failed checks are limited as well: ${pair.limit} in a row for one account (the ` +
    `username, in any case) from one IP, then that pair is refused for ${pair.blockSeconds} s, a success ` +
    `starting the count again (PASSWORD_CONSECUTIVE_FAILURE_LIMIT, PASSWORD_CONSECUTIVE_BLOCK_SECONDS); ` +
    `${address.limit} per IP per ${address.windowSeconds} s, all accounts together (PASSWORD_ADDRESS_FAILURE_LIMIT, ` +
    `PASSWORD_ADDRESS_FAILURE_WINDOW_SECONDS); and ${limit} per account per ${windowSeconds} s from all IPs ` +
    `(PASSWORD_ACCOUNT_RATE_LIMIT, PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS), beyond which only an IP that has not ` +
    `failed at the account is checked. 429 beyond any of them.`
  );
}

const throttled = (description: string) => ({
  description,
  headers: { 'Retry-After': { type: 'integer', description: 'Seconds until a request will be accepted' } },
  schema: swaggerRef(errorDetail),
});
const storeDown = errorResponses.detail(
  'The rate-limit store (Redis) does not answer; the endpoint refuses rather than run unlimited',
);

export const tag = { name: 'auth', description: 'Token pair, refresh and the identity bound to a credential' };

export const definitions = swaggerDefinitions(tokenRequest, tokenPair, refreshRequest, accessToken, me);

// The token operations are getters so they state the configured lifetimes and limits, read when the
// description is served rather than when this module is imported.
export const docs = {
  get createToken() {
    return {
      operationId: 'createToken',
      summary: 'Obtain an access and refresh token pair',
      tags: ['auth'],
      description:
        `username is the complete e-mail (case-insensitive), never the short login name. Any failure ` +
        `(unknown e-mail, wrong password, login name as username, missing or non-string fields) is 401 with ` +
        `the same body, and an unknown e-mail takes as long as a wrong password. ${lifetimes()} ${rateLimitNote()} ` +
        passwordBudgetNote(),
      parameters: [{ name: 'body', in: 'body', required: true, schema: swaggerRef(tokenRequest) }],
      responses: {
        200: { description: 'The token pair (an object of strings)', schema: swaggerRef(tokenPair) },
        401: errorResponses.detail(`Any failure; always ${JSON.stringify(TOKEN_FAILURE)}`),
        429: throttled(
          'Per-IP limit or a limit of failed password checks exceeded; Retry-After says in how many seconds ' +
            'to try again',
        ),
        503: storeDown,
      },
    };
  },
  get refreshToken() {
    return {
      operationId: 'refreshToken',
      summary: 'Get a new access token with a refresh token',
      tags: ['auth'],
      description:
        `The refresh token is not rotated: it stays valid until it expires or its user's sessions are ended ` +
        `(a revocation, a password change or a deactivation). An access token is refused here, ` +
        `as a refresh token is refused as a bearer credential. Expired, tampered, unsigned (alg none) or ` +
        `otherwise-signed tokens are 401. ${lifetimes()} ${rateLimitNote()}`,
      parameters: [{ name: 'body', in: 'body', required: true, schema: swaggerRef(refreshRequest) }],
      responses: {
        200: {
          description: 'A new access token (an object of strings)',
          schema: swaggerRef(accessToken),
        },
        401: errorResponses.detail(`Any failure; always ${JSON.stringify(REFRESH_FAILURE)}`),
        429: throttled('Per-IP rate limit exceeded; Retry-After says in how many seconds to try again'),
        503: storeDown,
      },
    };
  },
  getMe: {
    operationId: 'getMe',
    summary: 'The merchant bound to the credential',
    tags: ['auth'],
    description:
      "username is the short login name, not the e-mail. A merchant user's JWT or a merchant token: its " +
      'merchant. The system token: the merchant named by X-Merchant-Id, or, without that header, only role ' +
      "system with the merchant fields null. A staff user's JWT: the staff user, merchant fields null.",
    parameters: [
      {
        name: 'X-Merchant-Id',
        in: 'header',
        required: false,
        type: 'integer',
        description: 'With the system token only: the merchant to describe',
      },
    ],
    responses: {
      200: { description: 'The identity', schema: swaggerRef(me) },
      400: errorResponses.fieldErrors,
    },
  },
} satisfies Record<string, SwaggerOperation>;
