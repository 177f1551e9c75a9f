/**
 * Sending a sale's refunds to the acquirer: one process at a time per sale (the send lane, a claim
 * of src/db/claims.ts), one refund at a time, oldest first, at least CANCEL_SPACING_MS apart.
 *
 * Before a void is sent, the refund records what the acquirer's cumulative VoidedAmount of the sale
 * is (the sum of succeeded refunds: only this lane voids a captured sale) and the request's key.
 * A void with no answer (timeout, cut connection, a process that died) leaves that record: the next
 * turn asks the acquirer for VoidedAmount before anything is sent again, so nothing is refunded
 * twice. Whatever cannot be done now (spacing, a busy lane, an acquirer that does not answer) is a
 * delayed job: a turn of the lane later.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { AcquirerRejectedError, AcquirerStatus, callMayStillBeRunningMs, getSale, voidSale } from '../acquirer/client';
import { AcquirerUnavailableError } from '../acquirer/errors';
import { Claims, type HeldClaim } from '../db/claims';
import { logger } from '../platform/logger';
import { claimTransition, releaseTransitionClaimOf } from '../payments/transitions';
import { PaymentModel, type Payment } from '../payments/model';
import { enqueueSendRefunds } from '../../jobs/send-refunds';
import { RefundLaneModel, RefundModel, type Refund, type RefundLane } from '../payments/refund-model';
import { CANCEL_SPACING_MS, outcomeFromVoidedAmount, refusalOf } from './outcomes';
import { refundFailedForOrigin, refundSucceededForOrigin } from './origins';
import { refundEvent, refundSettledEvents } from './events';
import { oweEvents, owedSet, recordOwed, withStillOwed } from '../events/outbox';

/**
 * The holder extends the lane before each acquirer call, so the lease outlives one call (its
 * headers and its body may each take the acquirer timeout); after that its holder is taken for dead.
 */
const laneLeaseMs = () => 2 * getConfig().acquirer.timeoutMs + 15_000;

const lanes = new Claims<RefundLane>(RefundLaneModel, { startField: 'startedAt', leaseMs: laneLeaseMs });

/** At most this many refunds per turn: a turn stays short, the next one is queued. */
const REFUNDS_PER_TURN = 20;
/** When the acquirer cannot be asked or another operation holds the sale: try again after this. */
const RETRY_LATER_MS = 5_000;

/**
 * A PIX refund the acquirer accepted (Status 12) completes by its notice, which gives the sale a turn
 * at once; without a notice, a turn asks the acquirer again after this long (and the sweep does).
 */
const PIX_REFUND_RECHECK_MS = 30_000;

/**
 * What the turn does with the oldest pending refund, and the refund (and sale) as it wrote them: a
 * request whose refund the turn settled answers with that, without reading it again.
 */
type Step = ({ next: 'continue'; succeeded?: { sale: Payment } } | { next: 'later'; delayMs: number; why: string }) & {
  written?: Refund;
};

/** The sales a refund may be sent for; a cancel-capture's REFUNDED sale has nothing left. */
const REFUNDABLE = new Set(['CONFIRMED', 'PARTIALLY_REFUNDED']);

export const capturedValueOf = (sale: Payment): number => sale.capturedValue || sale.amountCents;

/** A sale and its refunds (oldest first) as the lane's holder reads them: only the holder settles a refund. */
export interface LaneRead {
  sale: Payment | null;
  refunds: Refund[];
}

/** Read at once: the sale and its refunds. */
async function readLane(saleId: number): Promise<LaneRead> {
  const [sale, refunds] = await Promise.all([
    PaymentModel.findById(saleId).lean(),
    // Oldest first: ids come from per-process blocks, so only the creation time orders them across processes.
    RefundModel.find({ saleId }).sort({ createdAt: 1, _id: 1 }).lean(),
  ]);
  return { sale, refunds };
}

/** What a turn came to, and the refunds it wrote, as written. */
interface Turn {
  why: string;
  written: Map<number, Refund>;
}

/** One turn of a sale's lane: sends its pending refunds until one must wait. Never throws for an acquirer failure. */
export async function sendPendingRefunds(saleId: number): Promise<string> {
  const lane = await lanes.claim(saleId, () => ({}));
  if (!lane.claimed) {
    // Its holder may have read the pending refunds before ours was recorded: come back after it.
    await enqueueSendRefunds(saleId, RETRY_LATER_MS);
    return 'lane busy: another turn later';
  }
  try {
    return (await turn(saleId, lane.claim, null)).why;
  } finally {
    await lane.claim.release();
  }
}

/**
 * A refund request's admission and the lane's turn right after it. With the lane free, the request
 * holds it first: `admit` gets the sale and its refunds as the holder reads them (they are the turn's
 * too), and the turn sends the new refund at once. With the lane busy, `admit` reads for itself
 * (null) and the refund waits for a turn of the lane's. `latest`: the admitted refund as it is now.
 */
export async function admitAndSend(
  saleId: number,
  admit: (read: LaneRead | null) => Promise<Refund>,
): Promise<{ admitted: Refund; latest: Refund }> {
  const lane = await lanes.claim(saleId, () => ({}));
  if (!lane.claimed) {
    const admitted = await admit(null);
    await enqueueSendRefunds(saleId, RETRY_LATER_MS);
    return { admitted, latest: admitted };
  }
  try {
    const read = await readLane(saleId);
    const admitted = await admit(read);
    const { written } = await turn(saleId, lane.claim, { sale: read.sale, refunds: [...read.refunds, admitted] });
    return { admitted, latest: written.get(admitted._id) ?? admitted };
  } finally {
    await lane.claim.release();
  }
}

async function turn(saleId: number, lane: HeldClaim<RefundLane>, first: LaneRead | null): Promise<Turn> {
  const written = new Map<number, Refund>();
  let known = first;
  for (let sent = 0; sent < REFUNDS_PER_TURN; sent++) {
    const { sale, refunds } = known ?? (await readLane(saleId));
    known = null;
    // A chargeback's hold is admitted like a refund but never sent: the acquirer's chargeback returns that money.
    const next = refunds.find((refund) => refund.status === 'pending' && refund.kind !== 'chargeback');
    if (!next) return { why: 'no pending refund', written };
    const step = await advance(next, refunds, sale, lane, sent === 0);
    if (step.written) written.set(step.written._id, step.written);
    if (step.next === 'later') {
      await enqueueSendRefunds(saleId, step.delayMs);
      return { why: `refund ${next._id}: ${step.why}; another turn in ${step.delayMs} ms`, written };
    }
    // After a void that happened nothing is read again: the next refund of this sale waits the acquirer's spacing
    // anyway (counted from now), and one admitted meanwhile found the lane busy and has its own turn queued.
    if (step.succeeded && step.written)
      known = {
        sale: step.succeeded.sale,
        refunds: refunds.map((refund) => (refund._id === next._id ? step.written! : refund)),
      };
  }
  await enqueueSendRefunds(saleId, 0);
  return { why: 'more refunds pending: another turn', written };
}

/** Sums the sale's succeeded refunds: what the acquirer's VoidedAmount is when nothing is in flight. */
const succeededSum = (refunds: Refund[]) =>
  refunds
    .filter((refund) => refund.status === 'succeeded' && refund.kind !== 'chargeback')
    .reduce((sum, refund) => sum + refund.valueCents, 0);

/** Another turn took the lane over (this one was taken for dead): it must not call the acquirer. */
const LANE_LOST: Step = { next: 'later', delayMs: RETRY_LATER_MS, why: 'the lane was taken over' };

async function advance(
  refund: Refund,
  refunds: Refund[],
  sale: Payment | null,
  lane: HeldClaim<RefundLane>,
  justClaimed: boolean,
): Promise<Step> {
  if (!sale) return fail(refund, null, 'The sale no longer exists.');
  // The lane's lease outlives one acquirer call: a lane claimed for this step needs no extension yet.
  if (!justClaimed && !(await lane.extend())) return LANE_LOST;
  if (refund.sent) return settleUnknown(refund, sale, refunds);
  if (!REFUNDABLE.has(sale.status)) return fail(refund, null, `The sale is ${sale.status}: nothing is left to refund.`);
  if (sale.reconciliation)
    return { next: 'later', delayMs: RETRY_LATER_MS, why: 'another operation on the sale is being confirmed' };
  const lastSent = Math.max(
    0,
    ...refunds.map((other) => (other.attemptedAt ? new Date(other.attemptedAt).getTime() : 0)),
  );
  const wait = lastSent + CANCEL_SPACING_MS - Date.now();
  if (wait > 0) return { next: 'later', delayMs: wait, why: "waiting for the acquirer's spacing between cancels" };
  let claimHolder = refund.confirmedClaimHolder;
  if (sale.status === 'CONFIRMED' && !claimHolder) {
    // The first refund moves the sale out of CONFIRMED: it takes that transition's claim, which
    // keeps a cancel-capture (a full void) of the same sale out while it runs.
    const transition = await claimTransition(sale._id, 'CONFIRMED', 'refund');
    if (!transition.claimed)
      return { next: 'later', delayMs: RETRY_LATER_MS, why: 'another operation on the sale is running' };
    claimHolder = transition.claim.document.holder ?? null;
  }
  const sent = {
    at: new Date(),
    voidedBefore: succeededSum(refunds),
    requestKey: `refund-${refund._id}-${crypto.randomUUID()}`,
  };
  // Recorded before the call: from here on, an unknown outcome is settled from VoidedAmount.
  await RefundModel.updateOne(
    { _id: refund._id },
    { $set: { sent, attemptedAt: sent.at, confirmedClaimHolder: claimHolder } },
  );
  const sending = { ...refund, sent, attemptedAt: sent.at, confirmedClaimHolder: claimHolder };
  try {
    const answer = await voidSale(sale.acquirer.paymentId!, {
      idempotencyKey: sent.requestKey,
      amountCents: refund.valueCents,
    });
    if (sale.paymentMethod === 'pix' && answer.status === AcquirerStatus.Pending) return pixRefundAccepted(sending);
  } catch (error) {
    if (error instanceof AcquirerRejectedError) {
      const refusal = refusalOf(error.errors, error.httpStatus);
      await RefundModel.updateOne({ _id: refund._id }, { $set: { sent: null } });
      if (refusal.retry) return { next: 'later', delayMs: CANCEL_SPACING_MS, why: 'the acquirer asked to retry' };
      return fail(sending, refusal.code, refusal.reason);
    }
    if (!(error instanceof AcquirerUnavailableError)) throw error;
    logger.warn({ refundId: refund._id, err: { message: error.message } }, 'refund void without an answer');
    if (!error.outcomeUnknown) {
      // Never reached the acquirer (refused connection): nothing happened.
      await RefundModel.updateOne({ _id: refund._id }, { $set: { sent: null } });
      return { next: 'later', delayMs: RETRY_LATER_MS, why: 'the acquirer could not be reached' };
    }
    return { next: 'later', delayMs: RETRY_LATER_MS, why: 'no answer: its outcome is read from VoidedAmount next' };
  }
  return succeed(sending, sale, refunds);
}

/** A void whose answer never came: the acquirer's VoidedAmount says whether it happened. */
async function settleUnknown(refund: Refund, sale: Payment, refunds: Refund[]): Promise<Step> {
  const sent = refund.sent!;
  let voidedNow: number;
  let truthStatus: number;
  try {
    const truth = await getSale(sale.acquirer.paymentId!);
    if (!truth) return fail(refund, '3', 'The acquirer has no record of this sale.');
    voidedNow = truth.voidedAmountCents;
    truthStatus = truth.status;
  } catch (error) {
    if (!(error instanceof AcquirerUnavailableError)) throw error;
    return { next: 'later', delayMs: RETRY_LATER_MS, why: 'the acquirer cannot say what became of the void yet' };
  }
  const outcome = outcomeFromVoidedAmount(voidedNow, sent.voidedBefore, refund.valueCents);
  if (outcome === 'happened') return succeed(refund, sale, refunds);
  // A PIX reads Status 12 while a refund it accepted is not complete: only this lane asks for one,
  // so it is this refund (its answer lost, or accepted before): it completes by the notice.
  if (outcome === 'not-happened' && sale.paymentMethod === 'pix' && (sent.accepted || truthStatus === 12))
    return pixRefundAccepted(refund);
  if (outcome === 'not-happened') {
    const stillRunning = callMayStillBeRunningMs() - (Date.now() - new Date(sent.at).getTime());
    // A call that timed out may still reach the acquirer: until it cannot, nothing is sent again.
    if (stillRunning > 0)
      return { next: 'later', delayMs: stillRunning, why: 'the void without an answer may still run' };
    await RefundModel.updateOne({ _id: refund._id }, { $set: { sent: null } });
    return { next: 'continue' };
  }
  logger.error(
    { refundId: refund._id, saleId: sale._id, voidedNow, voidedBefore: sent.voidedBefore, value: refund.valueCents },
    "the acquirer's VoidedAmount matches neither outcome of a refund: left pending for an operator",
  );
  return { next: 'later', delayMs: 10 * 60_000, why: 'VoidedAmount matches neither outcome' };
}

/**
 * The void happened. The sale is written first (its refunded total counts this refund): a crash
 * before the refund's own write leaves it pending with its send recorded, and the next turn finds
 * the same VoidedAmount and writes the same total again.
 */
async function succeed(refund: Refund, sale: Payment, refunds: Refund[]): Promise<Step> {
  const refunded = succeededSum(refunds.filter((other) => other._id !== refund._id)) + refund.valueCents;
  const whole = refunded >= capturedValueOf(sale);
  const now = new Date();
  const moved = {
    refundedValue: refunded,
    status: whole ? ('REFUNDED' as const) : ('PARTIALLY_REFUNDED' as const),
    ...(whole ? { refundedAt: sale.refundedAt ?? now } : {}),
  };
  await PaymentModel.updateOne({ _id: sale._id }, { $set: moved });
  const settled: Refund = { ...refund, status: 'succeeded', settledAt: now };
  await refundSucceededForOrigin(sale, settled, refunded, whole);
  // The refund's write owes its events (src/events/outbox.ts): a crash after it loses neither. The
  // refund.pending its admission still owes (a request that sent it at once) is recorded with them.
  const owed = withStillOwed(refund, oweEvents(refundSettledEvents(settled, sale, refunded, whole), now));
  await RefundModel.updateOne({ _id: refund._id }, { $set: { status: 'succeeded', settledAt: now, ...owedSet(owed) } });
  await recordOwed(RefundModel, refund._id, owed);
  return { next: 'continue', succeeded: { sale: { ...sale, ...moved } }, written: settled };
}

/**
 * The acquirer took a PIX refund (Status 12): it stays pending, marked so it is never sent again,
 * until its completion (VoidedAmount grown, Status 11) is read after the acquirer's notice.
 */
async function pixRefundAccepted(refund: Refund): Promise<Step> {
  if (!refund.sent?.accepted) await RefundModel.updateOne({ _id: refund._id }, { $set: { 'sent.accepted': true } });
  const written = { ...refund, sent: refund.sent ? { ...refund.sent, accepted: true } : refund.sent };
  return {
    next: 'later',
    delayMs: PIX_REFUND_RECHECK_MS,
    why: 'the acquirer completes this PIX refund by notice',
    written,
  };
}

async function fail(refund: Refund, code: string | null, reason: string): Promise<Step> {
  const failed = { status: 'failed', acquirerCode: code, failureReason: reason, settledAt: new Date(), sent: null };
  const written: Refund = { ...refund, ...failed, status: 'failed' };
  const owed = withStillOwed(refund, oweEvents([refundEvent(written)]));
  await RefundModel.updateOne({ _id: refund._id }, { $set: { ...failed, ...owedSet(owed) } });
  await refundFailedForOrigin(written);
  await recordOwed(RefundModel, refund._id, owed);
  // Nothing left the sale: a cancel-capture may have its CONFIRMED transition again.
  if (refund.confirmedClaimHolder)
    await releaseTransitionClaimOf(refund.saleId, 'CONFIRMED', refund.confirmedClaimHolder);
  return { next: 'continue', written };
}
