/** A subscription's cancellation record outranks its stored status (FerretDB has no transactions). */
import { checkedAfterLookup } from '../db/filters';
import { insertOnce } from '../db/claims';
import {
  SubscriptionCancellationModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCancellation,
} from './model';

/**
 * The subscription as everyone must see it, given its cancellation record (null: none), read beside
 * it: cancelled when the record exists, even if a concurrent whole-document write put `active` back
 * (FerretDB); the stored status is restored.
 */
export async function applyCancellation(
  sub: Subscription,
  cancellation: SubscriptionCancellation | null,
): Promise<Subscription> {
  if (sub.status !== 'active' || !cancellation) return sub;
  await SubscriptionModel.updateOne(
    { _id: sub._id },
    { $set: { status: 'cancelled', cancelledAt: cancellation.cancelledAt, nextDueDate: null } },
  );
  return { ...sub, status: 'cancelled', cancelledAt: cancellation.cancelledAt, nextDueDate: null };
}

/**
 * Cancels an active subscription: the record inserted once (a second cancel, or a concurrent one,
 * finds it and goes on to the same write), then the status. The merchant's cancel and a Pix
 * Automático mandate that ends (payer's cancellation, rejection, expiry) both come here.
 */
export async function recordCancellation(sub: Pick<Subscription, '_id'>, cancelledAt: Date): Promise<void> {
  await insertOnce(SubscriptionCancellationModel, { _id: sub._id, cancelledAt });
  const recorded = (await SubscriptionCancellationModel.findById(sub._id).lean())!;
  await SubscriptionModel.updateOne(
    { _id: sub._id, status: checkedAfterLookup('active') },
    { $set: { status: 'cancelled', cancelledAt: recorded.cancelledAt, nextDueDate: null } },
  );
}
