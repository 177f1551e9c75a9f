/**
 * helmet's security headers, computed once and set in one loop. helmet runs thirteen middleware
 * per request, each building or checking its value again; with our options every value is the
 * same for every request, so helmet runs once, at build time, against a recorder, and each answer
 * gets the recorded headers: the same names, values and order as helmet's own middleware
 * (test/foundation/security-headers.test.ts compares them).
 */
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { type Config, getConfig } from '../../config';

/**
 * Where the service is served over HTTPS (an https PUBLIC_BASE_URL, or production, which sits behind TLS), its
 * pages may ask the browser to upgrade any http request. Over plain HTTP that directive breaks them: a browser on
 * any host but loopback (a phone on the LAN, a staging box) rewrites the page's asset requests to https, which
 * nothing answers, and the checkout stays on "Carregando…" and Swagger UI blank.
 */
export function servedOverHttps(config: Pick<Config, 'publicBaseUrl' | 'nodeEnv'>): boolean {
  return config.nodeEnv === 'production' || new URL(config.publicBaseUrl).protocol === 'https:';
}

export function helmetOptions(overHttps: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      // Everything the checkout page and Swagger UI load is served from our own origin.
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // helmet's default, which null turns off.
        upgradeInsecureRequests: overHttps ? [] : null,
      },
    },
  };
}

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

/** Sets helmet's headers (as recorded once for this service's options) on every answer. */
export function securityHeaders(options: HelmetOptions = helmetOptions(servedOverHttps(getConfig()))): RequestHandler {
  const { set, removed } = recordHelmetHeaders(options);
  return (_req, res, next) => {
    for (let i = 0; i < set.length; i++) res.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}
