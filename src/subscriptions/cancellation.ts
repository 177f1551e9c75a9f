/** A subscription's cancellation record outranks its stored status (FerretDB has no transactions). */
import { checkedAfterLookup } from '../db/filters';
import { insertOnce } from '../db/claims';
import { oweEvents, owedSet, type Owed } from '../events/outbox';
import { subscriptionEvent } from './events';
import {
  SubscriptionCancellationModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCancellation,
} from './model';

/**
 * The subscription as everyone must see it, given its cancellation record (null: none), read beside
 * it: cancelled when the record exists, even if the subscription's copy says `active` (a process that
 * died between the record and the copy's write, or a concurrent whole-document write on a FerretDB
 * without docs/store.md's patch); the stored status is restored.
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
 * Automático mandate that ends (payer's cancellation, rejection, expiry) both come here. The caller
 * records what the write owes (recordOwed): nothing when another cancel made the move.
 */
export async function recordCancellation(sub: Subscription, cancelledAt: Date): Promise<Owed> {
  await insertOnce(SubscriptionCancellationModel, { _id: sub._id, cancelledAt });
  const recorded = (await SubscriptionCancellationModel.findById(sub._id).lean())!;
  const change = { status: 'cancelled' as const, cancelledAt: recorded.cancelledAt, nextDueDate: null };
  // The move owes subscription.cancelled in the same write (src/events/outbox.ts); its caller records it.
  const moved = { ...sub, ...change, updatedAt: cancelledAt };
  const owed = oweEvents([subscriptionEvent('subscription.cancelled', moved)], cancelledAt);
  const written = await SubscriptionModel.updateOne(
    { _id: sub._id, status: checkedAfterLookup('active') },
    { $set: { ...change, ...owedSet(owed) } },
  );
  return written.matchedCount ? owed : oweEvents([]);
}
