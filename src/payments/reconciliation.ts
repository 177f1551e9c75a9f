/**
 * Reconciliation: asks the acquirer for the true state of a sale whose last call had an unknown
 * outcome (or a PIX past its expiry with no notice) and settles ours to it, once. What a settling
 * move owes (its event, the answer an Idempotency-Key record keeps) is the caller's to say (SettleOwes).
 */
import { AcquirerStatus, callMayStillBeRunningMs, getSale, type AcquirerSale } from '../acquirer/client';
import { findAcquirerCharge, noSaleIsConclusive } from './card-charge';
import { freeKey, recordOfUse } from './idempotency';
import { PaymentModel, SaleIdempotencyModel, type Payment } from './model';
import { isUnnoticedPixPastExpiry, noticeMayMove, statusFromAcquirer } from './state-table';
import { claimTransition, moveSale, releaseOperationClaim, type MoveOwes } from './transitions';

/** What settling a payment owes: its move's event, and the answer its Idempotency-Key record keeps. */
export interface SettleOwes extends MoveOwes {
  keptAnswer: (settled: Payment) => { status: number; body: Record<string, unknown> };
}

/**
 * Asks the acquirer for the true state of a sale whose last call had an unknown outcome and
 * settles it. Throws AcquirerUnavailableError while the acquirer cannot answer (the job retries).
 */
export async function reconcileSale(saleId: number, owes: SettleOwes, now = new Date()): Promise<string> {
  return reconcileReadSale(await PaymentModel.findById(saleId).lean(), owes, now);
}

/** reconcileSale, for a sale just read (a notice found it). */
export async function reconcileReadSale(sale: Payment | null, owes: SettleOwes, now = new Date()): Promise<string> {
  // The sweep waited out the grace before queueing; here expiry alone decides.
  if (sale && !sale.reconciliation && isUnnoticedPixPastExpiry(sale, now, 0)) {
    // Its payment notice may have been lost: the acquirer says whether it was paid or expired.
    const truth = await getSale(sale.acquirer.paymentId!);
    return truth
      ? `pix past expiry: ${await settleToAcquirer(sale, truth, owes)}`
      : 'the acquirer does not know this PaymentId';
  }
  if (!sale?.reconciliation) return 'nothing to reconcile';
  const { operation, fromStatus } = sale.reconciliation;
  if (
    operation !== 'authorize' &&
    sale.reconciliation.inFlight &&
    Date.now() - new Date(sale.reconciliation.since).getTime() < callMayStillBeRunningMs()
  ) {
    // A capture, cancel or refund call is running right now (its process sets this mark before
    // calling and settles the sale itself): reading the acquirer now could undo what it writes.
    // A notice retries; the stuck-reconciliation sweep comes back if the process died.
    throw new Error(`sale ${sale._id}: a ${operation} call is in flight; its own process settles the sale`);
  }
  const truth = sale.acquirer.paymentId
    ? await getSale(sale.acquirer.paymentId)
    : (await findAcquirerCharge(sale.merchantOrderId)).sale;

  if (operation === 'authorize') {
    const sent = { at: new Date(sale.createdAt), mayStillRun: Boolean(sale.reconciliation.inFlight) };
    if (!truth && !noSaleIsConclusive(sent)) {
      // A call that timed out may still be running at the acquirer: "no such sale" proves nothing
      // yet. Retried (the job's backoff) until no call could still be running.
      throw new Error(
        `the acquirer has no sale for order ${sale.merchantOrderId} yet; asking again until the call cannot ` +
          `still be running`,
      );
    }
    if (!(await claimTransition(sale._id, 'PROCESSING', 'settle')).claimed) {
      // Someone holds the settlement of this sale: a concurrent run (it writes the same acquirer
      // truth), or a run that died before writing. Either way the sale may be moved by this truth:
      // the move is conditional on PROCESSING, so at most the same values are written twice.
      const current = await PaymentModel.findById(sale._id).lean();
      if (!current || current.status !== 'PROCESSING' || !current.reconciliation) return 'already settled';
    }
    const to = truth ? (statusFromAcquirer(truth.status, sale) ?? 'FAILED') : 'FAILED';
    const settled = await moveSale(sale, to, truth ?? { status: AcquirerStatus.NotFinished }, owes);
    if (sale.idempotencyRecordId) {
      if (truth) {
        const answer = owes.keptAnswer(settled);
        await SaleIdempotencyModel.updateOne(recordOfUse(sale.idempotencyRecordId, sale.idempotencyRecordCreatedAt), {
          $set: { state: 'done', response: { status: answer.status, body: answer.body } },
        });
      } else {
        // Nothing happened at the acquirer: the key may be used again.
        await freeKey(SaleIdempotencyModel, sale.idempotencyRecordId, sale.idempotencyRecordCreatedAt);
      }
    }
    return truth ? `authorization settled as ${to}` : 'the acquirer has no such sale: FAILED, nothing charged';
  }

  if (!truth) throw new Error(`the acquirer does not know payment ${sale.acquirer.paymentId} of sale ${sale._id}`);
  const to = statusFromAcquirer(truth.status, sale);
  if (!to || to === fromStatus) {
    // The call never took effect: the sale stays as it was and may be operated again. The claim is
    // released before the reconciling flag is cleared: while the flag is set every operation is
    // refused, so nothing can take the freed claim early, and a crash between the two writes
    // leaves a flagged sale the sweep settles again, never an unflagged sale locked for good.
    await releaseOperationClaim(sale._id, fromStatus);
    await PaymentModel.updateOne(
      { _id: sale._id },
      { $set: { reconciliation: null, reconciling: false, 'acquirer.status': truth.status } },
    );
    return `${operation} did not happen; ${fromStatus} kept`;
  }
  try {
    await moveSale(sale, to, truth, owes);
  } catch (error) {
    // Another reconciliation of the same episode (the sweep's) settled it first.
    const current = await PaymentModel.findById(sale._id).lean();
    if (current && !current.reconciliation) return 'already settled';
    throw error;
  }
  return `${operation} settled as ${to}`;
}

/** Moves a sale to what the acquirer says, guarded like every transition. */
export async function settleToAcquirer(sale: Payment, truth: AcquirerSale, owes: MoveOwes): Promise<string> {
  if (!noticeMayMove(sale.status)) return `no change (${sale.status}: its refunds settle it)`;
  const to = statusFromAcquirer(truth.status, sale);
  if (!to || to === sale.status) return `no change (${sale.status})`;
  if (!(await claimTransition(sale._id, sale.status, 'settle')).claimed) {
    const current = await PaymentModel.findById(sale._id).lean();
    if (current?.status === to) return `no change (${to})`;
    throw new Error(`sale ${sale._id} is being moved out of ${sale.status} by another operation; try again`);
  }
  await moveSale(sale, to, truth, owes);
  return `${sale.status} -> ${to}`;
}
