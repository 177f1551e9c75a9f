/**
 * The three bearer credentials and the per-route policy of which ones a route accepts.
 *
 *   Authorization: Bearer <JWT access token>        a user (merchant or staff), via passport-jwt
 *   Authorization: Bearer mt_...                    an individual merchant token
 *   Authorization: Bearer <SYSTEM_TOKEN>            the fixed system token; acts for a merchant only
 *                                                   when X-Merchant-Id names an existing one
 *
 * No or bad credential: 401, with RFC 6750's challenge (bearerRefusal). A valid credential of a kind the
 * route does not accept: 403.
 */
import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { TokenExpiredError } from 'jsonwebtoken';
import { Strategy as JwtStrategy } from 'passport-jwt';
import { getConfig } from '../../config';
import { MerchantTokenModel, UserModel, type MerchantToken, type Role } from './model';
import { MerchantModel, type Merchant } from '../merchants/model';
import type { UserRecord } from './service';
import { sha256Hex } from '../platform/digests';
import { readOne } from '../db/reads';
import { isCurrentSession, JWT_ALGORITHM, jwtKey, type TokenClaims } from './tokens';
import { ApiError, badRequest, forbidden, unauthorized } from '../platform/errors';
import { acceptedCredentials, type CredentialPolicy } from '../http/credential-policy';

export interface Principal {
  kind: 'jwt' | 'merchantToken' | 'system';
  role: Role | 'system';
  userId?: number;
  /** The merchant the request acts for; absent for staff, and for the system token without X-Merchant-Id. */
  merchantId?: number;
  /**
   * What the check read, for the route to use instead of reading it again: a JWT's user (without
   * its password hash), a merchant token's record, the merchant the system token names. Read for
   * this request only: no record is kept between requests, so a revoked token, a deleted user or
   * a user whose sessions were ended is refused on the very next request (only a JWT's signature
   * check is remembered: VerifiedTokens).
   */
  user?: UserRecord;
  token?: MerchantToken;
  merchant?: Merchant;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match ? match[1] : null;
}

let accessJwtStrategy: JwtStrategy | undefined;

/** A JWT's claims as passport-jwt hands them over once it has checked the token. */
type VerifiedClaims = TokenClaims & { exp?: number };

/**
 * JWT access tokens go through passport-jwt, the design's authentication layer: signature, HS256
 * only, expiry. It reads the token bearerOf reads, so the token it verified is the one cached
 * below. Made once, on first use.
 */
function jwtStrategy(): JwtStrategy {
  accessJwtStrategy ??= new JwtStrategy(
    {
      jwtFromRequest: bearerOf,
      // A KeyObject (jsonwebtoken takes one; passport-jwt's types only name strings and buffers).
      secretOrKeyProvider: (_req, _token, done) => done(null, jwtKey() as unknown as Buffer),
      algorithms: [JWT_ALGORITHM],
    },
    (claims: VerifiedClaims, done: (err: unknown, claims?: VerifiedClaims) => void) => done(null, claims),
  );
  return accessJwtStrategy;
}

/**
 * Runs the passport-jwt strategy under passport's strategy contract, as passport.authenticate does
 * (an attempt made from the strategy, answered through success, fail or error), but without
 * passport.authenticate itself, which adds seven properties to every request (login, logout,
 * isAuthenticated... for sessions, which this API has none of) and measured slower, the cost
 * spread over the whole request rather than in passport's own lines. Measured on GET /api/v1/me/ against the bench's
 * bare route, alternating 2 s rounds after 30 s of warm-up: 0.76 of its rate through
 * passport.authenticate, 0.83 this way (0.92 with the credential read of src/db/reads.ts);
 * docs/benchmarks.md.
 */
function verifyWithStrategy(req: Request): Promise<VerifiedClaims | 'expired' | null> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(jwtStrategy()) as JwtStrategy;
    attempt.success = (claims: VerifiedClaims) => resolve(claims);
    // jsonwebtoken checks the signature before the expiry: only a token we signed is told it expired.
    attempt.fail = (reason: unknown) => resolve(reason instanceof TokenExpiredError ? 'expired' : null);
    attempt.error = reject;
    attempt.authenticate(req, { session: false });
  });
}

/**
 * Access tokens passport-jwt has verified, by their exact text, until their expiry: a token seen
 * again skips the signature check, never the expiry or the user read. jsonwebtoken's verify cost
 * about 0.1 ms of CPU per request, an eighth of GET /api/v1/me/'s web CPU (measured 2026-11-26
 * against the bench's bare route: 0.86 of its rate with every token verified, 0.93 with this).
 * Only tokens that passed enter, so nobody fills it without valid tokens; it holds at most
 * VERIFIED_TOKENS_KEPT, the oldest dropped first, and is emptied if the signing key changes.
 */
export class VerifiedTokens {
  private readonly claims = new Map<string, VerifiedClaims>();
  private key: unknown;

  constructor(private readonly capacity: number) {}

  /** The claims of a token verified under `key` and not expired at `nowMs`, else undefined. */
  get(token: string, key: unknown, nowMs = Date.now()): VerifiedClaims | undefined {
    if (key !== this.key) return undefined;
    const claims = this.claims.get(token);
    if (!claims) return undefined;
    // jsonwebtoken's rule: a token is expired from its exp second on.
    if (Math.floor(nowMs / 1000) < claims.exp!) return claims;
    this.claims.delete(token);
    return undefined;
  }

  /** Keeps a token just verified under `key`; one without an expiry is not kept (it would never leave). */
  add(token: string, key: unknown, claims: VerifiedClaims): void {
    if (typeof claims.exp !== 'number') return;
    if (key !== this.key) {
      this.claims.clear();
      this.key = key;
    }
    if (this.claims.size >= this.capacity) this.claims.delete(this.claims.keys().next().value!);
    this.claims.set(token, claims);
  }

  get size(): number {
    return this.claims.size;
  }
}

/** About 0.5 KB each (the token's text and its claims): 10,000 take about 5 MB. */
export const VERIFIED_TOKENS_KEPT = 10_000;
const verifiedTokens = new VerifiedTokens(VERIFIED_TOKENS_KEPT);

/** The caller of a verified access token: its type and subject checked, its user read (every request). */
async function principalOfAccessToken(claims: VerifiedClaims): Promise<Principal | null> {
  const userId = Number(claims.sub);
  // A token we signed always carries a positive integer sub; anything else is refused, not a 500.
  if (claims.typ !== 'access' || !Number.isSafeInteger(userId) || userId < 1) return null;
  const user = await readOne<UserRecord>(UserModel, { _id: userId }, { passwordHash: 0 });
  // Read here, on every request, so ending a user's sessions refuses a token VerifiedTokens remembers.
  if (!user || !isCurrentSession(claims, user)) return null;
  return { kind: 'jwt', role: user.role, userId: user._id, merchantId: user.merchantId ?? undefined, user };
}

async function authenticateJwt(req: Request, bearer: string): Promise<Principal | null> {
  const key = jwtKey();
  const known = verifiedTokens.get(bearer, key);
  const claims = known ?? (await verifyWithStrategy(req));
  // Said only of an access token: an expired refresh token is no bearer credential at all.
  if (claims === 'expired') throw bearerRefusal(isAccessToken(bearer) ? 'expired' : 'invalid');
  if (!claims) return null;
  // Only access tokens are kept: a refresh token is refused below on every request anyway.
  if (!known && claims.typ === 'access') verifiedTokens.add(bearer, key, claims);
  return principalOfAccessToken(claims);
}

let systemTokenDigest: { token: string; digest: Buffer } | undefined;

/**
 * Compared in constant time over SHA-256 digests (equal lengths whatever the bearer's); the system
 * token's digest is made once, not on every request.
 */
function isSystemToken(bearer: string): boolean {
  const token = getConfig().systemToken;
  if (systemTokenDigest?.token !== token) systemTokenDigest = { token, digest: sha256(token) };
  return crypto.timingSafeEqual(sha256(bearer), systemTokenDigest.digest);
}

/** One-shot: no Hash object per request. */
function sha256(value: string): Buffer {
  return crypto.hash('sha256', value, 'buffer');
}

/** The merchant X-Merchant-Id names (read whole: /me answers from it), or undefined without the header. */
async function systemMerchantFrom(req: Request, policy: CredentialPolicy): Promise<Merchant | undefined> {
  const header = req.headers['x-merchant-id'];
  if (header === undefined) {
    if (policy.systemMerchant === 'required') {
      throw badRequest({
        'X-Merchant-Id': ['The system token must name the merchant it acts for in the X-Merchant-Id header.'],
      });
    }
    return undefined;
  }
  // Strict decimal: Number() would also take " 1", "0x1" and "1e0" as merchant 1.
  if (typeof header !== 'string' || !/^[1-9]\d{0,15}$/.test(header)) {
    throw badRequest({ 'X-Merchant-Id': ['Must be a merchant id: a positive integer.'] });
  }
  const merchant = await readOne<Merchant>(MerchantModel, { _id: Number(header) });
  if (!merchant) throw badRequest({ 'X-Merchant-Id': ['No merchant has this id.'] });
  return merchant;
}

/** Whether a JWT whose signature jsonwebtoken has already checked is an access token (its `typ` claim). */
function isAccessToken(bearer: string): boolean {
  const [, payload] = bearer.split('.');
  try {
    return (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { typ?: unknown }).typ === 'access';
  } catch {
    return false;
  }
}

/** How a bearer credential was refused. */
export type BearerRefusal = 'missing' | 'invalid' | 'expired';

export const EXPIRED_ACCESS_TOKEN =
  'The access token expired. Get a new one with POST /api/token/refresh/ (or log in again).';

/**
 * The 401 of a bearer route, with RFC 6750's challenge: `Bearer` alone when the request carried no
 * bearer credential (section 3), `error="invalid_token"` when it carried one we refuse (section 3.1),
 * and for an expired access token its description, said in the body too. A wrong token and an expired
 * one keep the same status; nothing of the token is echoed.
 */
export function bearerRefusal(kind: BearerRefusal): ApiError {
  if (kind === 'missing') return withChallenge(unauthorized(), 'Bearer');
  if (kind === 'invalid') return withChallenge(unauthorized(), 'Bearer error="invalid_token"');
  return withChallenge(
    unauthorized(EXPIRED_ACCESS_TOKEN),
    'Bearer error="invalid_token", error_description="The access token expired"',
  );
}

function withChallenge(error: ApiError, challenge: string): ApiError {
  return new ApiError(error.status, error.body, { 'WWW-Authenticate': challenge });
}

/** Identifies the caller; throws 401 when there is no valid credential of any kind. */
export async function identify(req: Request): Promise<Principal> {
  const bearer = bearerOf(req);
  if (!bearer) throw bearerRefusal('missing');
  if (isSystemToken(bearer)) return { kind: 'system', role: 'system' };
  if (bearer.startsWith('mt_')) {
    const token = await readOne<MerchantToken>(MerchantTokenModel, { _id: sha256Hex(bearer) });
    if (!token || token.revokedAt) throw bearerRefusal('invalid');
    return { kind: 'merchantToken', role: 'merchant', merchantId: token.merchantId, token };
  }
  const principal = await authenticateJwt(req, bearer);
  if (!principal) throw bearerRefusal('invalid');
  return principal;
}

function accepts(policy: CredentialPolicy, principal: Principal): boolean {
  if (principal.kind === 'system') return Boolean(policy.system);
  if (principal.kind === 'merchantToken') return Boolean(policy.merchantToken);
  return Boolean(policy.jwt?.includes(principal.role as Role));
}

/** Identifies the caller and checks the policy: 401 without a valid credential, 403 for a kind the policy refuses. */
export async function authorize(req: Request, policy: CredentialPolicy): Promise<Principal> {
  const principal = await identify(req);
  if (!accepts(policy, principal))
    throw forbidden(`This credential is not accepted by this operation; it accepts ${acceptedCredentials(policy)}.`);
  if (principal.kind === 'system') {
    principal.merchant = await systemMerchantFrom(req, policy);
    principal.merchantId = principal.merchant?._id;
  }
  req.principal = principal;
  return principal;
}

export function requireCredential(policy: CredentialPolicy): RequestHandler {
  return async (req, _res, next) => {
    await authorize(req, policy);
    next();
  };
}

/** The merchant a request acts for; routes behind a merchant policy always have one. */
export function merchantIdOf(req: Request): number {
  const id = req.principal?.merchantId;
  if (id === undefined) throw new ApiError(403, { detail: 'This operation needs a merchant credential.' });
  return id;
}
