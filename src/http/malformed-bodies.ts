/**
 * Paths whose contract answers every failure alike (the token endpoints: always 401) also answer a
 * body that is not JSON that way; the body is parsed before any route runs, so they register here.
 */
import type { ApiError } from '../platform/errors';

const malformedBodyAnswers = new Map<string, ApiError>();
export function answerMalformedBodyWith(path: string, error: ApiError): void {
  malformedBodyAnswers.set(path.replace(/\/+$/, ''), error);
}

/** The answer a path registered for a body that is not JSON, if any. */
export function malformedBodyAnswerFor(path: string): ApiError | undefined {
  return malformedBodyAnswers.get(path.replace(/\/+$/, ''));
}
