/**
 * The NUL character (U+0000) is refused in URLs and JSON bodies with a 400 naming where it was.
 * PostgreSQL cannot store it in text or jsonb, so on FerretDB's PostgreSQL backend any filter or
 * document carrying one fails inside the store (a 500); no field of ours has a use for it.
 */
import type { RequestHandler } from 'express';
import { badRequest, badRequestDetail } from './errors';

const NUL = '\u0000';

/** The path of the first key or string value holding a NUL, e.g. "payer.name"; undefined when none. */
export function nulPathOf(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? at || 'body' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
    if (key.includes(NUL)) return path;
    const found = nulPathOf(child, path);
    if (found) return found;
  }
  return undefined;
}

/** Before routing: a %00 anywhere in the path or query string. */
export const refuseNulInUrl: RequestHandler = (req, _res, next) => {
  if (/%00/.test(req.originalUrl)) throw badRequestDetail('The URL must not contain the NUL character (%00).');
  next();
};

/** After a route's body is read. */
export const refuseNulInBody: RequestHandler = (req, _res, next) => {
  const path = nulPathOf(req.body);
  if (path) throw badRequest({ [path.replaceAll(NUL, '\\u0000')]: ['Must not contain the NUL character (U+0000).'] });
  next();
};
