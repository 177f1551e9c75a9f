/**
 * Token pair, refresh and the caller's identity. The token endpoints answer every failure with one
 * fixed 401 body (no hint of which part was wrong) and are rate limited per client IP in Redis; a
 * token request is a password check, counted by the limits basic auth's checks count against
 * (password-guessing.ts).
 */
import type { RequestHandler } from 'express';
import { type Principal } from './authenticate';
import { ANY_CREDENTIAL } from '../http/credential-policy';
import { answerMalformedBodyWith } from '../http/malformed-bodies';
import { ApiError } from '../platform/errors';
import { rateLimit } from '../http/rate-limit';
import { countPasswordCheck } from './password-guessing';
import { routeTable, type Feature } from '../http/routes';
import { describeIdentity, obtainTokenPair, refreshAccessToken } from './service';
import { bodyField, REFRESH_FAILURE, TOKEN_FAILURE } from './schemas';
import { definitions, docs, tag } from './swagger';

// "Any failure is 401": a body that is not JSON too (it fails before the route runs).
answerMalformedBodyWith('/api/token/', new ApiError(401, { ...TOKEN_FAILURE }));
answerMalformedBodyWith('/api/token/refresh/', new ApiError(401, { ...REFRESH_FAILURE }));

const handlers = {
  createToken: async (req, res) => {
    // Every request counts against the address budget (a malformed one too); one naming an account
    // against that account's limits, and a success gives back what it counted there.
    const username = bodyField(req, 'username');
    const check = await countPasswordCheck(req, typeof username === 'string' ? username : undefined);
    res.set('RateLimit-Limit', String(check.limit)).set('RateLimit-Remaining', String(check.remaining));
    const pair = await obtainTokenPair(username, bodyField(req, 'password'));
    if (!pair) throw new ApiError(401, { ...TOKEN_FAILURE });
    await check.passed();
    res.json(pair);
  },
  refreshToken: async (req, res) => {
    const result = await refreshAccessToken(bodyField(req, 'refresh'));
    if (!result) throw new ApiError(401, { ...REFRESH_FAILURE });
    res.json(result);
  },
  getMe: async (req, res) => {
    const principal = req.principal as Principal;
    const { kind, userId, merchantId, user, token, merchant } = principal;
    res.json(await describeIdentity({ kind, userId, merchantId, user, token, merchant }));
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);

export const authFeature: Feature = {
  name: 'auth',
  tag,
  definitions,
  routes: [
    route('post', '/api/token/', 'createToken', { nulInBody: 'handled' }),
    route('post', '/api/token/refresh/', 'refreshToken', {
      nulInBody: 'handled',
      before: [rateLimit({ name: 'refresh' })],
    }),
    route('get', '/api/v1/me/', 'getMe', { auth: ANY_CREDENTIAL }),
  ],
};
