/**
 * Bodies that cannot be read as this API's JSON: a body of another media type is 415 naming
 * application/json (refuseNonJsonBody), malformed JSON 400 (the web's error handler). Paths whose
 * contract answers every failure alike (the token endpoints: always 401) answer both their own way;
 * the body is refused before any route runs, so they register here.
 */
import type { Request, RequestHandler } from 'express';
import { ApiError } from '../platform/errors';

const malformedBodyAnswers = new Map<string, ApiError>();
export function answerMalformedBodyWith(path: string, error: ApiError): void {
  malformedBodyAnswers.set(path.replace(/\/+$/, ''), error);
}

/** The answer a path registered for a body that is not JSON, if any. */
export function malformedBodyAnswerFor(path: string): ApiError | undefined {
  return malformedBodyAnswers.get(path.replace(/\/+$/, ''));
}

/** The media types the body reader parses (src/web/app.ts); every other body is refused unread. */
export const JSON_BODY_TYPES = ['application/json', 'application/*+json'];

/**
 * True when the request carries body bytes: a Content-Length above 0, or a chunked body. An empty
 * body is no body, whatever its Content-Type says (curl -X POST -d '' sends a form type).
 */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/** The media type as sent, when it reads as one (type/subtype); never more of the header than that. */
function mediaTypeOf(req: Request): string | undefined {
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  return type && /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/.test(type) ? type : undefined;
}

/**
 * A body that is not JSON (a form, text, no Content-Type at all) on a route that reads one: 415 naming
 * application/json, rather than reading it as no body and reporting every field missing. GET and HEAD
 * bodies are never read, so never refused.
 */
export const refuseNonJsonBody: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || !carriesBody(req) || req.is(JSON_BODY_TYPES)) return next();
  const type = mediaTypeOf(req);
  const came =
    req.headers['content-type'] === undefined ? ' (it came with no Content-Type)' : type ? ` (it came as ${type})` : '';
  const detail = `The body must be JSON: send it with Content-Type: application/json${came}.`;
  next(malformedBodyAnswerFor(req.path) ?? new ApiError(415, { detail }));
};
