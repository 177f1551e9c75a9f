/** A subscription's cancellation record outranks its stored status (FerretDB has no transactions). */
import {
  SubscriptionCancellationModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCancellation,
} from './model';

/**
 * The subscription as everyone must see it: cancelled when its cancellation record exists, even if
 * a concurrent whole-document write put `active` back (FerretDB); the stored status is restored.
 */
export async function withCancellation(sub: Subscription): Promise<Subscription> {
  if (sub.status !== 'active') return sub;
  return applyCancellation(sub, await SubscriptionCancellationModel.findById(sub._id).lean());
}

/** withCancellation with the cancellation record already read (null: none), e.g. beside the subscription. */
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
