/**
 * The token routes read their two body fields by hand: any failure, a missing or non-string field
 * included, is the same 401, so there is no field map to give.
 */
import type { Request } from 'express';

export const TOKEN_FAILURE = { detail: 'No active account found with the given credentials.' } as const;
export const REFRESH_FAILURE = { detail: 'Token is invalid or expired.' } as const;

export function bodyField(req: Request, name: string): unknown {
  const body: unknown = req.body;
  const value =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
  // A NUL cannot be in any e-mail, password or token of ours (nor stored by PostgreSQL): a plain failure, 401.
  return typeof value === 'string' && value.includes('\u0000') ? undefined : value;
}
