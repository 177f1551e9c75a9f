/**
 * The NUL character (U+0000) is refused in URLs and JSON bodies with a 400 naming where it was.
 * PostgreSQL cannot store it in text or jsonb, so on FerretDB's PostgreSQL backend any filter or
 * document carrying one fails inside the store (a 500); no field of ours has a use for it.
 */
import type { RequestHandler } from 'express';
import { badRequest, badRequestDetail } from '../platform/errors';

const NUL = '\u0000';

/**
 * The path of the first key or string value holding a NUL, e.g. "payer.document[1]"; undefined
 * when none. Iterative: a body nested tens of thousands of levels deep must not overflow the stack.
 */
export function nulPathOf(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length) {
    const [node, at] = pending.pop()!;
    if (typeof node === 'string') {
      if (node.includes(NUL)) return at || 'body';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const children: [unknown, string][] = [];
    for (const [key, child] of Object.entries(node)) {
      const path = Array.isArray(node) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      if (key.includes(NUL)) return path;
      children.push([child, path]);
    }
    // Reversed onto the stack, so the first child is looked at first.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return undefined;
}

/** Before routing: a %00 anywhere in the path or query string. */
export const refuseNulInUrl: RequestHandler = (req, _res, next) => {
  if (req.originalUrl.includes('%00')) throw badRequestDetail('The URL must not contain the NUL character (%00).');
  next();
};

/** After a route's body is read. */
export const refuseNulInBody: RequestHandler = (req, _res, next) => {
  const path = nulPathOf(req.body);
  if (!path) return next();
  const shown = path.replaceAll(NUL, '\\u0000');
  // A path hundreds of thousands of levels deep is named by its start.
  throw badRequest({
    [shown.length > 200 ? `${shown.slice(0, 200)}...` : shown]: ['Must not contain the NUL character (U+0000).'],
  });
};
