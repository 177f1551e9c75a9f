/**
 * The error family: an error whose HTTP status and JSON body are known. Services throw these and know
 * no Express; the web's error handler (src/web/errors.ts) answers them.
 */
export type FieldErrors = Record<string, string[]>;

/** An error whose HTTP status and JSON body are known. Services throw these; they know no Express. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export const badRequest = (fields: FieldErrors) => new ApiError(400, fields);
export const badRequestDetail = (detail: string) => new ApiError(400, { detail });
export const unauthorized = (detail = 'Authentication credentials were not provided or are invalid.') =>
  new ApiError(401, { detail });
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, { detail });
export const notFound = (detail = 'Not found.') => new ApiError(404, { detail });
export const conflict = (detail: string) => new ApiError(409, { detail });
export const badGateway = (
  detail = 'Payment gateway error: the acquirer could not be reached or did not answer in time.',
) => new ApiError(502, { detail });
/** A backing service (Redis, MongoDB) does not answer: try again shortly. */
export const serviceUnavailable = (detail = 'Service temporarily unavailable, try again shortly.') =>
  new ApiError(503, { detail }, { 'Retry-After': '5' });
