/** JWT access and refresh tokens: HS256 only, with a `typ` claim so one kind is never taken for the other. */
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { getConfig } from '../../config';
import type { Role } from './model';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  sub: string;
  typ: TokenType;
  role: Role;
  mid: number | null;
  /** The user's tokenVersion when the token was signed; absent on tokens signed before it existed (0). */
  ver?: number;
}

/** What a token is checked against: its user's current version and state (see User.tokenVersion). */
export interface SessionState {
  tokenVersion?: number;
  deactivatedAt?: Date | null;
}

/** A token of this user's current sessions: signed at its current version, the user not deactivated. */
export function isCurrentSession(claims: Pick<TokenClaims, 'ver'>, user: SessionState): boolean {
  return (claims.ver ?? 0) === (user.tokenVersion ?? 0) && !user.deactivatedAt;
}

export const JWT_ALGORITHM = 'HS256' as const;

let key: { secret: string; object: crypto.KeyObject } | undefined;

/**
 * The HS256 key as a KeyObject, made once: given a string, jsonwebtoken first tries it as a public
 * key on every sign and verify (crypto.createPublicKey throwing, with a stack trace), which was
 * the largest single cost of an authenticated request (17% of the web process's CPU on /me).
 */
export function jwtKey(): crypto.KeyObject {
  const { secret } = getConfig().jwt;
  if (key?.secret !== secret) key = { secret, object: crypto.createSecretKey(Buffer.from(secret, 'utf8')) };
  return key.object;
}

export function signToken(
  type: TokenType,
  user: { _id: number; role: Role; merchantId: number | null; tokenVersion?: number },
): string {
  const { accessTtlSeconds, refreshTtlSeconds } = getConfig().jwt;
  const claims: TokenClaims = {
    sub: String(user._id),
    typ: type,
    role: user.role,
    mid: user.merchantId,
    ver: user.tokenVersion ?? 0,
  };
  return jwt.sign(claims, jwtKey(), {
    algorithm: JWT_ALGORITHM,
    expiresIn: type === 'access' ? accessTtlSeconds : refreshTtlSeconds,
    jwtid: crypto.randomUUID(),
  });
}

/** Verifies signature, algorithm, expiry and type; returns the claims or null. */
export function verifyToken(token: string, type: TokenType): TokenClaims | null {
  try {
    const claims = jwt.verify(token, jwtKey(), { algorithms: [JWT_ALGORITHM] }) as TokenClaims;
    return claims.typ === type ? claims : null;
  } catch {
    return null;
  }
}
