/**
 * The one place that maps errors to HTTP. Every error body is a JSON object: validation failures
 * are the spec's field map {"field": ["message"]}, everything else {"detail": "..."}.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isCelebrateError } from 'celebrate';
import type { Logger } from '../platform/logger';
import { ApiError, type FieldErrors } from '../platform/errors';
import { malformedBodyAnswerFor } from '../http/malformed-bodies';
import { AcquirerNotConfiguredError, AcquirerUnavailableError } from '../acquirer/errors';

/** Messages of the driver, mongoose and ioredis when the store or Redis cannot be reached. */
const STORE_UNAVAILABLE = new RegExp(
  "buffering timed out|Connection is closed|Stream isn't writeable|enableOfflineQueue|ECONNREFUSED|" +
    'Client must be connected',
  'i',
);

/** Joi/celebrate details -> {"field": ["message"]}; the key is the dotted path of the field. */
function celebrateFieldMap(error: unknown): FieldErrors {
  // No prototype: a field named __proto__ or constructor (hostile input) is just another key.
  const fields: FieldErrors = Object.create(null);
  if (!isCelebrateError(error)) return fields;
  for (const [segment, joiError] of error.details.entries()) {
    for (const detail of joiError.details) {
      const key = detail.path.length ? detail.path.join('.') : segment === 'body' ? 'non_field_errors' : segment;
      (fields[key] ??= []).push(detail.message);
    }
  }
  return fields;
}

const MONGO_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNotConnectedError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
]);

/** True when the error means a backing service (MongoDB, Redis) is down rather than a bug. */
export function isBackingServiceDown(error: unknown): boolean {
  const e = error as { name?: string; message?: string; code?: string };
  if (!e) return false;
  if (e.name && MONGO_UNAVAILABLE.has(e.name)) return true;
  if (e.message && STORE_UNAVAILABLE.test(e.message)) return true;
  return false;
}

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not found.' });
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    if (isCelebrateError(error)) {
      res.status(400).json(celebrateFieldMap(error));
      return;
    }
    if (error instanceof ApiError) {
      res.set(error.headers).status(error.status).json(error.body);
      return;
    }
    if (error instanceof AcquirerUnavailableError) {
      logger.warn(
        { reqId: req.id, err: { message: error.message }, outcomeUnknown: error.outcomeUnknown },
        'acquirer unavailable',
      );
      res
        .status(502)
        .json({ detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.' });
      return;
    }
    if (error instanceof AcquirerNotConfiguredError) {
      res.status(503).json({ detail: `${error.message}.` });
      return;
    }
    const bodyParserType = (error as { type?: string }).type;
    if (bodyParserType === 'entity.parse.failed') {
      const own = malformedBodyAnswerFor(req.path);
      if (own) res.set(own.headers).status(own.status).json(own.body);
      else res.status(400).json({ detail: 'Malformed JSON in request body.' });
      return;
    }
    if (bodyParserType === 'entity.too.large') {
      res.status(413).json({ detail: 'Request body too large.' });
      return;
    }
    const status =
      (error as { status?: number; statusCode?: number }).status ?? (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // body-parser and friends: charset/encoding problems, aborted requests
      res.status(status).json({ detail: (error as Error).message || 'Bad request.' });
      return;
    }
    if (isBackingServiceDown(error)) {
      logger.error({ err: error, reqId: req.id }, 'backing service unavailable');
      res.status(503).set('Retry-After', '5').json({ detail: 'Service temporarily unavailable, try again shortly.' });
      return;
    }
    logger.error({ err: error, reqId: req.id }, 'unhandled error');
    res.status(500).json({ detail: 'Internal server error.' });
  };
}
