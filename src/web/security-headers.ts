/**
 * helmet's security headers, computed once and set in one loop. helmet runs thirteen middleware
 * per request, each building or checking its value again; with our options every value is the
 * same for every request, so helmet runs once, at build time, against a recorder, and each answer
 * gets the recorded headers: the same names, values and order as helmet's own middleware
 * (test/foundation/security-headers.test.ts compares them).
 */
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    // Everything the checkout page and Swagger UI load is served from our own origin.
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
    },
  },
};

export interface RecordedHeaders {
  set: [name: string, value: string][];
  removed: string[];
}

/** What helmet's middleware does to a response with these options, recorded in order. */
export function recordHelmetHeaders(options: HelmetOptions): RecordedHeaders {
  const directives =
    typeof options.contentSecurityPolicy === 'object' ? (options.contentSecurityPolicy.directives ?? {}) : {};
  // A directive computed per request (a nonce) cannot be recorded once.
  if (Object.values(directives).some((value) => [value].flat().some(isFunction))) {
    throw new Error('security headers: a Content-Security-Policy directive computed per request cannot be recorded');
  }
  const recorded: RecordedHeaders = { set: [], removed: [] };
  const recorder = {
    setHeader(name: string, value: unknown) {
      recorded.set.push([name, String(value)]);
    },
    removeHeader(name: string) {
      recorded.removed.push(name);
    },
  };
  let done = false;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('security headers: helmet did not finish synchronously');
  return recorded;
}

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

/** Sets helmet's headers (as recorded once for HELMET_OPTIONS) on every answer. */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): RequestHandler {
  const { set, removed } = recordHelmetHeaders(options);
  return (_req, res, next) => {
    for (let i = 0; i < set.length; i++) res.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}
