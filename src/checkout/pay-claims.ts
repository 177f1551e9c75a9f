/**
 * The one charge of a link: before calling the acquirer the pay step claims the link (a
 * PaymentClaim whose _id is the link id, src/db/claims.ts). On FerretDB two conditional updates
 * can both "win", an insert under a unique _id cannot. A denial or transport failure releases the
 * claim (the link stays payable); a paid link keeps it.
 */
import crypto from 'node:crypto';
import { callMayStillBeRunningMs } from '../acquirer/client';
import { Claims, type HeldClaim } from '../db/claims';
import { ApiError, conflict } from '../platform/errors';
import type { InstallmentOption } from '../platform/installments';
import { PaymentClaimModel, type PaymentClaim, type PaymentLink } from '../payment-links/model';

/**
 * The one-charge claims of links (src/db/claims.ts). A 'charging' claim is held while its acquirer
 * call may still be running (callMayStillBeRunningMs): past that its pay died, and another pay, or
 * the sweep, may settle it. A 'paid' claim is never taken over: it is the paid-once guard.
 */
export const payments = new Claims<PaymentClaim>(PaymentClaimModel, {
  startField: 'startedAt',
  leaseMs: (claim) => (claim.state === 'paid' ? null : callMayStillBeRunningMs()),
});
export type HeldPayment = HeldClaim<PaymentClaim>;

export const ALREADY_PAID = 'This payment link is already paid.';
export const inProgress = () => new ApiError(409, { detail: IN_PROGRESS }, { 'Retry-After': '5' });
export const IN_PROGRESS =
  'A payment of this link is already in progress; if it does not finish, try again in a minute.';

/**
 * Claims the one charge of the link; 409 when another pay holds it or the link is paid. A dead
 * pay's claim is taken over under its acquirer keys, so the acquirer replays the sale it may have
 * made instead of charging twice.
 */
export async function claimPayment(link: PaymentLink, option: InstallmentOption, now: Date): Promise<HeldPayment> {
  const outcome = await payments.claim(
    link._id,
    (takenOver) => ({
      attemptKey: takenOver?.attemptKey ?? crypto.randomUUID(),
      merchantOrderId: takenOver?.merchantOrderId ?? `PL${link._id}T${crypto.randomBytes(6).toString('hex')}`,
      // Under the same keys the acquirer replays the first sale: its option, not this payer's.
      option: takenOver ? (takenOver.option ?? null) : option,
      state: 'charging',
    }),
    now,
  );
  if (outcome.claimed) return outcome.claim;
  if (outcome.held?.state === 'paid') throw conflict(ALREADY_PAID);
  throw inProgress();
}

/**
 * Releases exactly the holder's claim while it is still charging: a slow holder whose claim was
 * taken over must not free the new one, and a paid claim is never freed.
 */
export async function releaseClaim(claim: HeldPayment): Promise<void> {
  await claim.release({ state: 'charging' });
}
