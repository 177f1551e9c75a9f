/**
 * The start of a subscription cycle: its charge inserted once (unique per subscription and due
 * date) and the subscription moved on to its next cycle. Run by the charge job
 * (charging.ts runChargeAttempt, from the subscription it read) and by the creation of a
 * subscription due today (scheduling.ts startFirstCycleIfDue); both are safe to run twice.
 */
import { checkedAfterLookup } from '../db/filters';
import { createOnce } from '../db/claims';
import { nextId } from '../db/ids';
import { applyCancellation } from './cancellation';
import { CHARGE_SEQUENCE, cycleDueDate } from './calendar';
import {
  ChargeStatus,
  SubscriptionCancellationModel,
  SubscriptionChargeModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCharge,
} from './model';
import type { ChargeJobData, DueCycle } from '../../jobs/charge-subscription';

/** The subscription as the charge path must see it; the cancellation record is read beside it (one wait, not two). */
export async function loadSubscription(subscriptionId: number): Promise<Subscription | null> {
  const [sub, cancellation] = await Promise.all([
    SubscriptionModel.findById(subscriptionId).lean(),
    SubscriptionCancellationModel.findById(subscriptionId).lean(),
  ]);
  return sub && applyCancellation(sub, cancellation);
}

/** By subscription id (its index); the due date, shared by every charge of a cycle, is checked after. */
export async function findSubscriptionCharge(
  subscriptionId: number,
  dueDate: string,
): Promise<SubscriptionCharge | null> {
  return SubscriptionChargeModel.findOne({
    subscriptionId,
    dueDate: checkedAfterLookup(dueDate),
  }).lean<SubscriptionCharge>();
}

/**
 * The first cycle of a subscription created already due, from the cycle its creation just computed
 * (never from a job: a charge job reads its subscription, charging.ts). The order keeps every guard
 * of the job's path:
 * - the cancellation record is read before anything is written, so a subscription cancelled
 *   before its run gets no charge (the path that reads first then restores its status);
 * - the charge is inserted before the subscription moves on, as there: a run that dies between
 *   the two leaves the subscription due, and its next run finds the charge by the unique index;
 * - moving on is one findOneAndUpdate, conditional on the subscription being active and at this
 *   due date, that answers the subscription as it was: the card and customer the sale needs.
 * When it matches nothing (another run moved it on, a stale job, a cancellation that came after
 * the record was read), the subscription is read as the other path reads it.
 * It runs before the cycle's job (scheduling.ts, startFirstCycleIfDue): the job's run then finds
 * the charge and the subscription moved on.
 */
export async function startDueCycle(
  data: ChargeJobData,
  cycle: DueCycle,
): Promise<{
  sub: Subscription | null;
  charge: SubscriptionCharge | null;
  insertedNow: boolean;
  advanced: boolean;
} | null> {
  if (await SubscriptionCancellationModel.exists({ _id: data.subscriptionId })) return null;
  const { charge, insertedNow } = await insertCharge({ _id: data.subscriptionId }, data.dueDate, cycle);
  const before = await SubscriptionModel.findOneAndUpdate(
    { _id: data.subscriptionId, status: checkedAfterLookup('active'), nextDueDate: checkedAfterLookup(data.dueDate) },
    { $set: { nextDueDate: cycle.followingDueDate, nextCycle: cycle.number + 1 } },
  ).lean<Subscription>();
  if (before) return { sub: before, charge, insertedNow, advanced: true };
  return { sub: await loadSubscription(data.subscriptionId), charge, insertedNow, advanced: false };
}

export async function insertCharge(
  sub: Pick<Subscription, '_id'>,
  dueDate: string,
  cycle: Pick<DueCycle, 'merchantId' | 'value' | 'number'>,
): Promise<{ charge: SubscriptionCharge; insertedNow: boolean }> {
  const created = await createOnce(SubscriptionChargeModel, {
    _id: await nextId(CHARGE_SEQUENCE),
    subscriptionId: sub._id,
    merchantId: cycle.merchantId,
    dueDate,
    cycle: cycle.number,
    status: ChargeStatus.PENDING,
    value: cycle.value,
    attempts: 1,
  });
  if (created) return { charge: created, insertedNow: true };
  return { charge: (await findSubscriptionCharge(sub._id, dueDate))!, insertedNow: false };
}

/** Moves the subscription to its next cycle once this cycle's charge exists (idempotent). */
export async function advanceToNextCycle(sub: Subscription, charge: SubscriptionCharge): Promise<void> {
  if (sub.nextDueDate !== charge.dueDate) return;
  const nextCycle = charge.cycle + 1;
  await SubscriptionModel.updateOne(
    { _id: sub._id, status: checkedAfterLookup('active'), nextDueDate: checkedAfterLookup(charge.dueDate) },
    { $set: { nextDueDate: cycleDueDate(sub, nextCycle), nextCycle } },
  );
}
