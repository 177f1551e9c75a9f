/**
 * How a payment moves: the transition claims (one per status a payment leaves, src/db/claims.ts), the
 * reconciliation mark set before an acquirer call whose outcome may be unknown, and the one write
 * that moves a payment to what the acquirer said. The area that made the payment says what a move
 * owes (its event, the answer kept for replays): src/payments knows no area's presentation.
 */
import type { AcquirerSale } from '../acquirer/client';
import { Claims, type HeldClaim } from '../db/claims';
import { checkedAfterLookup } from '../db/filters';
import { notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import {
  PaymentModel,
  SaleTransitionModel,
  type Payment,
  type SaleOperation,
  type PaymentStatus,
  type SaleTransition,
} from './model';
import { oweEvents, owedSet, recordOwed } from '../events/outbox';
import type { NewEvent } from '../events/recording';
import { settledFields, withFieldsSet } from './state-table';
import { enqueueReconcileSale, reconcileEpisodeJobId } from '../../jobs/reconcile-sale';

/** A reconciliation (or an operation) running longer than this is stuck: the sweep and /metrics look at it. */
export const STUCK_RECONCILIATION_MS = 10 * 60_000;

/** Who asks: a merchant, or the system token acting for every merchant (undefined). */
export type SaleScope = number | undefined;

export async function findSale(scope: SaleScope, saleId: number): Promise<Payment> {
  // By `_id` alone (see checkedAfterLookup); another merchant's sale is "not found": its existence is not revealed.
  const sale = await PaymentModel.findById(saleId).lean();
  if (!sale || (scope !== undefined && sale.merchantId !== scope)) throw notFound('Sale not found.');
  return sale;
}

/** One job per reconciliation episode (a sale may need several over its life). */
export async function enqueueReconciliation(saleId: number, fromStatus: PaymentStatus, since: Date): Promise<void> {
  await enqueueReconcileSale(saleId, reconcileEpisodeJobId(saleId, fromStatus, since), 1000);
}

/** Records that an acquirer call's outcome is unknown and queues the job that finds it out. */
export async function markForReconciliation(
  sale: Payment,
  operation: SaleOperation,
  reason: string,
  inFlight = false,
): Promise<Payment> {
  const reconciliation = { operation, fromStatus: sale.status, since: new Date(), reason, inFlight };
  const updated = await PaymentModel.findOneAndUpdate(
    { _id: sale._id },
    { $set: { reconciliation, reconciling: true } },
    { new: true },
  ).lean();
  try {
    await enqueueReconciliation(sale._id, sale.status, reconciliation.since);
  } catch (error) {
    logger.error({ err: error, saleId: sale._id }, 'could not queue the reconciliation of a sale');
  }
  return updated ?? { ...sale, reconciliation };
}

/**
 * A 'settle' claim makes no acquirer call, only our writes of what the acquirer said: older than
 * this, its holder died and it is taken over. (Not the acquirer-call bound callMayStillBeRunningMs:
 * no call of ours can be running under it.)
 */
const SETTLE_CLAIM_LEASE_MS = 2 * 60_000;

/**
 * The transition claims: one document per state a sale leaves. A claim held by a settlement that
 * died (a notice or reconciliation writing what the acquirer said) is taken over once its lease is
 * over; a claim of an acquirer operation is never taken over here: its sale carries the
 * reconciling flag, and the stuck-reconciliation sweep releases it (see reconcileUnmarkedClaim for
 * one whose sale never got the flag).
 */
const transitions = new Claims<SaleTransition>(SaleTransitionModel, {
  startField: 'createdAt',
  leaseMs: (claim) => (claim.operation === 'settle' ? SETTLE_CLAIM_LEASE_MS : null),
});

export type TransitionClaim =
  { claimed: true; claim: HeldClaim<SaleTransition> } | { claimed: false; held: SaleTransition | null };

/** Claims the transition out of `fromStatus`; not claimed when someone else holds it (`held`, as read). */
export function claimTransition(
  saleId: number,
  fromStatus: PaymentStatus,
  operation: SaleOperation | 'settle',
): Promise<TransitionClaim> {
  return transitions.claim(`${saleId}:${fromStatus}`, () => ({ saleId, fromStatus, operation }));
}

/**
 * Releases an operation's claim on behalf of its holder, once reconciliation learnt the call never
 * took effect (its holder may be dead). Exactly the claim read is released.
 */
export async function releaseOperationClaim(saleId: number, fromStatus: PaymentStatus): Promise<void> {
  const held = await transitions.read(`${saleId}:${fromStatus}`);
  if (held) await transitions.asRead(held).release();
}

/**
 * An operation known not to have taken effect: its claim is released, then its in-flight flag
 * cleared (in that order: while the flag is set every operation is refused, so nothing takes the
 * freed claim early, and a crash between the two leaves a flagged sale the sweep settles).
 */
export async function abandonOperation(saleId: number, claim: HeldClaim<SaleTransition>): Promise<void> {
  await claim.release();
  await PaymentModel.updateOne({ _id: saleId }, { $set: { reconciliation: null, reconciling: false } });
}

/** What a move owes, said by the area whose payment it is. */
export interface MoveOwes {
  /** The account event of the move (its sequence is set here), or null. */
  event: (moved: Payment) => NewEvent | null;
  /** The answer to keep on the payment for Idempotency-Key replays, when one is kept. */
  answer?: (moved: Payment) => NonNullable<Payment['idempotentAnswer']>;
}

/**
 * Moves a payment out of its status to what the acquirer said, in one write, with what the move owes. updatedAt is
 * set here so that a kept answer shows what is stored.
 */
export async function moveSale(
  sale: Payment,
  to: PaymentStatus,
  truth: Partial<AcquirerSale> & { status: number },
  owes: MoveOwes,
): Promise<Payment> {
  const set: Record<string, unknown> = { ...settledFields(sale, to, truth), updatedAt: new Date() };
  const moved = withFieldsSet(sale, set);
  if (owes.answer) set.idempotentAnswer = owes.answer(moved);
  // The move's event is owed by this same write (src/events/outbox.ts): a crash after it loses nothing. It takes the
  // number after the payment's last (eventSeq, written here too), so recording it reads no last event; the number is
  // a hint: taken meanwhile by another emitter of the sale's object (a refund's sale.refunded), the recording reads.
  const event = moved.status !== sale.status ? owes.event(moved) : null;
  if (event && typeof sale.eventSeq === 'number') {
    event.sequence = sale.eventSeq + 1;
    set.eventSeq = event.sequence;
  }
  const owed = oweEvents([event]);
  const filter = { _id: sale._id, status: checkedAfterLookup(sale.status) };
  const updated = await PaymentModel.findOneAndUpdate(
    filter,
    { $set: { ...set, ...owedSet(owed) } },
    { new: true, timestamps: false },
  ).lean();
  if (!updated) throw new Error(`sale ${sale._id} left ${sale.status} while its transition was held`);
  await recordOwed(PaymentModel, sale._id, owed);
  return updated;
}

/**
 * Releases the claim on the transition out of `fromStatus` if, and only if, the holder `holder`
 * still has it: a refund that took it (src/refunds) and learnt its void never happened.
 */
export async function releaseTransitionClaimOf(
  saleId: number,
  fromStatus: PaymentStatus,
  holder: string,
): Promise<void> {
  const held = await transitions.read(`${saleId}:${fromStatus}`);
  if (held?.holder === holder) await transitions.asRead(held).release();
}
