/**
 * The Central Bank's calendar of a Pix Automático charge (docs/api/pix-automatico.md, "Charges"), as pure
 * functions of days (YYYY-MM-DD):
 *
 * - the send window: a cycle's charge is sent from 10 to 2 days before its due date, both included; a charge
 *   whose window has passed is never sent (`window_missed`);
 * - the retry rule of `Allowed_3R_7D`: a charge whose settlement failed is tried again at most 3 times, each on a
 *   later day than the try before (so on different days), never after 7 days past the due date and never on or
 *   after the next cycle's due date. Each retry is a new charge at the acquirer settling on its retry day. Without
 *   the policy the first failure is final.
 * - variable amounts: a charge above the mandate's maximum is refused before sending.
 */
import { addDays } from './clock';

export const PIX_WINDOW_OPENS_DAYS_BEFORE = 10;
export const PIX_WINDOW_CLOSES_DAYS_BEFORE = 2;
export const PIX_MAX_RETRIES = 3;
export const PIX_RETRY_WITHIN_DAYS = 7;

/** Denial codes of a Pix Automático charge that was never sent (final: never retried). */
export const PIX_WINDOW_MISSED = 'window_missed';
export const PIX_WINDOW_MISSED_MESSAGE =
  "The charge was not sent inside the Central Bank's window (10 to 2 days before the due date)";
export const PIX_RETRY_WINDOW_MISSED_MESSAGE =
  'The retry was not sent within 7 days of the due date and before the next cycle';
export const PIX_ABOVE_MAXIMUM = 'amount_above_maximum';
export const PIX_ABOVE_MAXIMUM_MESSAGE = "The charge's amount is above the mandate's maximumValue";
export const PIX_MANDATE_NOT_APPROVED = 'mandate_not_approved';
export const PIX_MANDATE_NOT_APPROVED_MESSAGE = 'The Pix Automático mandate is not approved (or no longer is)';

/** The first and last day a cycle due `dueDate` may be sent. */
export function pixSendWindow(dueDate: string): { opens: string; closes: string } {
  return {
    opens: addDays(dueDate, -PIX_WINDOW_OPENS_DAYS_BEFORE),
    closes: addDays(dueDate, -PIX_WINDOW_CLOSES_DAYS_BEFORE),
  };
}

/** Where `today` falls against the send window of a cycle due `dueDate`. */
export function pixSendWindowState(today: string, dueDate: string): 'early' | 'open' | 'missed' {
  const { opens, closes } = pixSendWindow(dueDate);
  if (today < opens) return 'early';
  return today <= closes ? 'open' : 'missed';
}

/** The last day a retry of the charge due `dueDate` may settle on. */
export function lastPixRetryDay(dueDate: string, followingDueDate: string | null): string {
  const week = addDays(dueDate, PIX_RETRY_WITHIN_DAYS);
  if (followingDueDate === null) return week;
  const dayBeforeNext = addDays(followingDueDate, -1);
  return dayBeforeNext < week ? dayBeforeNext : week;
}

export interface PixRetryQuestion {
  /** The mandate's RetryPolicy is Allowed_3R_7D (and the subscription and mandate are still live). */
  retryPolicy: boolean;
  /** Retries already sent for this charge (0 after the first send failed). */
  retriesDone: number;
  dueDate: string;
  /** The day the failed try was to settle on (the due date, or the retry's day). */
  failedOn: string;
  /** The later of `failedOn` and the day the failure became known (a late notice). */
  today: string;
  /** The next cycle's due date, null for the last cycle. */
  followingDueDate: string | null;
}

/** The day of the next retry of a charge whose settlement failed, or null when the failure is final. */
export function nextPixRetryDay(q: PixRetryQuestion): string | null {
  if (!q.retryPolicy || q.retriesDone >= PIX_MAX_RETRIES) return null;
  const afterFailure = addDays(q.failedOn, 1);
  const tomorrow = addDays(q.today, 1);
  const day = afterFailure > tomorrow ? afterFailure : tomorrow;
  return day <= lastPixRetryDay(q.dueDate, q.followingDueDate) ? day : null;
}

/** Whether a retry may still be sent on `today` (the scheduler may run it later than its day). */
export function isPixRetryDayAllowed(today: string, dueDate: string, followingDueDate: string | null): boolean {
  return today > dueDate && today <= lastPixRetryDay(dueDate, followingDueDate);
}

/** A variable mandate's ceiling: a charge above it is never sent (null: fixed amounts, no ceiling). */
export function isAboveMaximum(amountCents: number, maximumValue: number | null): boolean {
  return maximumValue !== null && amountCents > maximumValue;
}
