/**
 * Which denied subscription charges are tried again, and when.
 *
 * Hard declines are final: the card or account will not become chargeable by waiting (57 not
 * allowed / expired, 78 card locked, 41 lost, 43 stolen, 14 invalid number, 54 expired,
 * 62 blocked, 59 fraud suspicion). Every other code is a soft decline (05 generic, 51 no funds,
 * 91 issuer down, 96 system failure, 99 timeout, 77, 70, ...) and so is `transport_error`, our code
 * for a communication failure with the acquirer.
 *
 * Retries fall on fixed days counted from the day of the first denial (CHARGE_RETRY_DAYS, default
 * 1,3,5,7): with the default a charge is sent at most 5 times. A retry is never scheduled for a
 * day already past (after an outage the next one is tomorrow).
 */
import { addDays } from './clock';

export const TRANSPORT_ERROR = 'transport_error';
export const TRANSPORT_ERROR_MESSAGE = 'Communication failure with the acquirer';
/** The denial of a charge whose subscription was cancelled before the charge was sent (never retried). */
export const SUBSCRIPTION_CANCELLED = 'subscription_cancelled';
export const SUBSCRIPTION_CANCELLED_MESSAGE = 'The subscription was cancelled before this charge was sent';

export const HARD_DECLINE_CODES: ReadonlySet<string> = new Set(['57', '78', '41', '43', '14', '54', '62', '59']);

/** Acquirer codes are strings of digits, sometimes zero-padded ('05'); compare them unpadded. */
function normalizeCode(code: string): string {
  return /^\d+$/.test(code) ? String(Number(code)) : code.toUpperCase();
}

export function isHardDecline(code: string): boolean {
  const normalized = normalizeCode(code);
  for (const hard of HARD_DECLINE_CODES) if (normalizeCode(hard) === normalized) return true;
  return false;
}

export interface RetryQuestion {
  retryEnabled: boolean;
  denialCode: string;
  /** Sends of this charge so far, the denied one included. */
  attemptsMade: number;
  /** Day of the charge's first denial, YYYY-MM-DD. */
  firstDeniedOn: string;
  /** Day the denied attempt ran, YYYY-MM-DD. */
  today: string;
  retryDays: number[];
}

/** Day of the next retry (YYYY-MM-DD), or null when the denial is final. */
export function nextRetryDay(q: RetryQuestion): string | null {
  if (!q.retryEnabled || isHardDecline(q.denialCode)) return null;
  const retriesDone = q.attemptsMade - 1;
  if (retriesDone >= q.retryDays.length) return null;
  const planned = addDays(q.firstDeniedOn, q.retryDays[retriesDone]);
  const tomorrow = addDays(q.today, 1);
  return planned > tomorrow ? planned : tomorrow;
}
