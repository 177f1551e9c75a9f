/**
 * The one card-charge path: "authorize this card at the acquirer exactly once for this order id,
 * and know the outcome even after a crash or a timeout". Pre-capture (src/sales), checkout pay
 * (src/checkout) and subscription charges (src/subscriptions/charging.ts) charge through here and
 * nowhere else; each keeps only its own rules (sale states, the link's paid state, the charge's
 * retry policy).
 *
 * Exactly once is three things together:
 * - the caller holds a guard on the order id before charging (a claim, an inserted charge, a sale
 *   in PROCESSING), so no two charges of one order id are sent at once;
 * - the charge is sent under an idempotency key (the acquirer's RequestId): sent again under the
 *   same key, the acquirer answers the sale it already made instead of charging again;
 * - an outcome that is not known (sent, then a timeout, a reset, a 5xx) is never taken for a
 *   failure: the acquirer is asked by order id (findAcquirerCharge), and "it has no such sale" is
 *   conclusive only once no call of ours can still be running there (callMayStillBeRunningMs).
 *
 * Medusa's payment providers answer a status rather than throw; so does chargeCard for every
 * acquirer failure (a bug or a config error still throws).
 */
import {
  AcquirerRejectedError,
  AcquirerStatus,
  callMayStillBeRunningMs,
  createCardSale,
  getSaleByOrderId,
  isApprovedStatus,
  type AcquirerSale,
  type CardSaleRequest,
  type CardSaleResult,
} from '../acquirer/client';
import { AcquirerUnavailableError } from '../acquirer/errors';

/** What became of one charge call. */
export type CardCharge =
  /** The acquirer answered: approved or denied (`answer.approved`). */
  | { outcome: 'answered'; answer: CardSaleResult }
  /** Nothing was charged: the acquirer refused the request itself (`refusal`), or it was never reached. */
  | { outcome: 'not-charged'; error: AcquirerUnavailableError; refusal: AcquirerRejectedError | null }
  /**
   * Sent, with no usable answer: the acquirer may have charged. `mayStillRun`: no answer came at
   * all (a timeout, a reset), so the call may still be running there.
   */
  | { outcome: 'unknown'; error: AcquirerUnavailableError; mayStillRun: boolean };

/** Sends one card charge; the caller holds the order id's guard. Acquirer failures are answered, not thrown. */
export async function chargeCard(request: CardSaleRequest): Promise<CardCharge> {
  try {
    return { outcome: 'answered', answer: await createCardSale(request) };
  } catch (error) {
    if (!(error instanceof AcquirerUnavailableError)) throw error;
    if (error.outcomeUnknown) return { outcome: 'unknown', error, mayStillRun: !error.answered };
    const refusal = error instanceof AcquirerRejectedError ? error : null;
    return { outcome: 'not-charged', error, refusal };
  }
}

/** When a charge of an order id was sent, and whether its call may still be running at the acquirer. */
export interface ChargeSent {
  at: Date;
  mayStillRun: boolean;
}

/** What the acquirer knows of an order id: its sale, or none (conclusive once no call can still make one). */
export type FoundCharge = { sale: AcquirerSale } | { sale: null; conclusive: boolean };

/**
 * True when "the acquirer has no sale for this order id" proves nothing was charged: the call was
 * answered, or was sent long enough ago that it cannot still be running there.
 */
export function noSaleIsConclusive(sent: ChargeSent, now = new Date()): boolean {
  return !sent.mayStillRun || now.getTime() - sent.at.getTime() >= callMayStillBeRunningMs();
}

/**
 * The reconciliation of a charge whose outcome is unknown: asks the acquirer by order id. Throws
 * AcquirerUnavailableError while the acquirer cannot be asked. Without `sent`, no sale is never
 * conclusive (the caller sends again under the same key instead). Any sale of the order id is
 * found, so sales reconcile a PIX charge's creation through here too.
 */
export async function findAcquirerCharge(
  merchantOrderId: string,
  sent?: ChargeSent,
  now = new Date(),
): Promise<FoundCharge> {
  const sale = await getSaleByOrderId(merchantOrderId);
  if (sale) return { sale };
  return { sale: null, conclusive: sent ? noSaleIsConclusive(sent, now) : false };
}

/** A charge's state at the acquirer, as every caller reads it. */
export type AcquirerChargeOutcome = 'approved' | 'denied' | 'reversed' | 'open';

export function acquirerChargeOutcomeOf(acquirerStatus: number): AcquirerChargeOutcome {
  if (isApprovedStatus(acquirerStatus)) return 'approved';
  if (acquirerStatus === AcquirerStatus.Denied || acquirerStatus === AcquirerStatus.Aborted) return 'denied';
  if (acquirerStatus === AcquirerStatus.Voided || acquirerStatus === AcquirerStatus.Refunded) return 'reversed';
  return 'open';
}
