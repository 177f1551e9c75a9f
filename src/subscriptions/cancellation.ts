/** A subscription's cancellation record outranks its stored status (FerretDB has no transactions). */
import { SubscriptionModel, type Subscription, type SubscriptionCancellation } from './model';

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
