/**
 * Transport failures with the acquirer: connection refused or reset, timeout, malformed answer.
 * One error kind, mapped to 502 by src/web/errors.ts. `outcomeUnknown` is set when the request
 * may have reached the acquirer (sent, then timed out or reset): the caller must reconcile
 * (ask the acquirer by idempotency key / order id) before concluding nothing happened.
 */
export class AcquirerUnavailableError extends Error {
  constructor(
    message: string,
    readonly outcomeUnknown: boolean,
    readonly cause?: unknown,
    /**
     * The acquirer did answer (a 5xx, a malformed body): whatever it did is done. False for a
     * timeout or a dropped connection after sending, when the call may still be running there.
     */
    readonly answered = false,
  ) {
    super(message);
    this.name = 'AcquirerUnavailableError';
  }
}

/** The chargeback integration has no credentials in config: 503. */
export class AcquirerNotConfiguredError extends Error {
  constructor(what: string) {
    super(`${what} is not configured`);
    this.name = 'AcquirerNotConfiguredError';
  }
}

/**
 * The acquirer answered, but refused the request itself (4xx other than a card denial: bad
 * field, bad MerchantKey, not capturable...). Nothing happened at the acquirer. It extends
 * AcquirerUnavailableError so a route that does not handle it answers 502 (a gateway error from
 * the merchant's point of view); callers that care check `instanceof AcquirerRejectedError`.
 */
export class AcquirerRejectedError extends AcquirerUnavailableError {
  constructor(
    readonly httpStatus: number,
    readonly errors: { Code: number | string; Message: string }[],
  ) {
    const codes = errors.map((e) => `${e.Code} ${e.Message}`).join('; ');
    super(`acquirer refused the request (HTTP ${httpStatus}${codes ? `: ${codes}` : ''})`, false);
    this.name = 'AcquirerRejectedError';
  }

  hasCode(code: number | string): boolean {
    return this.errors.some((e) => String(e.Code) === String(code));
  }
}
