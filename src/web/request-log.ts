/**
 * The request id and the one log line per request, in place of pino-http: that made a child
 * logger per request (its bindings run through the redaction of 75 paths even when the line is
 * not logged) and wrapped serializers around req and res, about 5% of the web process's CPU on a
 * one-read route. Here the line is one log call when the answer is done, on a logger made once.
 */
import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import { maskCardNumbers, type Logger } from '../platform/logger';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id: the caller's X-Request-Id when it is sane, else a fresh UUID; answered in X-Request-Id. */
    id: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The fields of a request line: never headers or bodies (credentials, cards, passwords). */
export interface RequestLine {
  req: { id: string; method: string; url: string };
  res: { statusCode: number };
  /** Milliseconds from the request's arrival at this middleware to the answer's last byte handed to the OS. */
  responseTime: number;
  /** Present when the client went away before the answer was sent. */
  aborted?: true;
}

/**
 * Sets req.id and X-Request-Id, and logs one line per request once its answer is sent (or the
 * client has gone): info, or error for a 5xx. The error handler logs the cause of a 5xx, with its
 * stack, under the same request id; the request line carries only the status.
 */
export function requestLog(logger: Logger): RequestHandler {
  // The line's fields are fixed and hold no secret, so it skips the logger's redaction (which
  // costs ten times the rest of the call); the path is still masked for card-number-like runs.
  const lineLogger = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const started = Date.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    res.once('close', () => {
      const { statusCode } = res;
      const level = statusCode >= 500 ? 'error' : 'info';
      if (!lineLogger.isLevelEnabled(level)) return;
      const url = req.originalUrl;
      const query = url.indexOf('?');
      const line: RequestLine = {
        req: { id, method: req.method, url: maskCardNumbers(query === -1 ? url : url.slice(0, query)) },
        res: { statusCode },
        responseTime: Date.now() - started,
      };
      let message = level === 'error' ? `request answered ${statusCode}` : 'request completed';
      if (!res.writableFinished) {
        line.aborted = true;
        message = 'request aborted';
      }
      lineLogger[level](line, message);
    });
    next();
  };
}
