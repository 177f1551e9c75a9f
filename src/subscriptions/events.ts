/**
 * The account events of subscriptions (src/events): created, cancelled, and each charge outcome
 * (confirmed, denied per attempt with its nextRetryAt, refunded), the objects as the API shows them.
 */
import { emitEvent, type NewEvent } from '../events/recording';
import {
  ChargeStatus,
  type ChargeAttempt,
  type MandateStatus,
  type Subscription,
  type SubscriptionCharge,
} from './model';
import { chargeView, subscriptionView } from './views';

export function subscriptionEvent(
  type: 'subscription.created' | 'subscription.cancelled',
  sub: Subscription,
): NewEvent {
  return { merchantId: sub.merchantId, type, objectId: sub._id, data: subscriptionView(sub) };
}

const MANDATE_EVENTS = {
  APPROVED: 'subscription.mandate_approved',
  REJECTED: 'subscription.mandate_rejected',
  EXPIRED: 'subscription.mandate_expired',
  CANCELLED: 'subscription.mandate_cancelled',
} as const;

/**
 * A Pix Automático mandate's move, confirmed by the acquirer: once per subscription and state (its event id).
 * Recorded after the move's own insert-once record, not owed by it (src/events/outbox.ts): a crash between
 * the two loses this event; the mandate's records are not swept yet.
 */
export async function emitMandateEvent(status: MandateStatus, sub: Subscription): Promise<void> {
  if (status === 'CREATED') return;
  await emitEvent({
    merchantId: sub.merchantId,
    type: MANDATE_EVENTS[status],
    objectId: sub._id,
    data: subscriptionView(sub),
  });
}

/** The event of a charge's current status: denied once per attempt, the others once per charge (null: none). */
export function chargeEvent(charge: SubscriptionCharge, sub: Subscription): NewEvent | null {
  const type =
    charge.status === ChargeStatus.CONFIRMED
      ? 'subscription_charge.confirmed'
      : charge.status === ChargeStatus.DENIED
        ? 'subscription_charge.denied'
        : charge.status === ChargeStatus.REFUNDED
          ? 'subscription_charge.refunded'
          : null;
  if (!type) return null;
  return {
    merchantId: sub.merchantId,
    type,
    objectId: charge._id,
    change: charge.status === ChargeStatus.DENIED ? `denied_${charge.attempts}` : undefined,
    data: chargeView(charge, sub),
  };
}

/** The event of the charge once an attempt's outcome is applied to it (charging.ts writes these fields). */
export function chargeOutcomeEvent(charge: SubscriptionCharge, outcome: ChargeAttempt, sub: Subscription) {
  return chargeEvent(
    {
      ...charge,
      status: outcome.status,
      attempts: outcome.attempt,
      acquirerPaymentId: outcome.acquirerPaymentId,
      denialCode: outcome.denialCode,
      denialMessage: outcome.denialMessage,
      nextRetryAt: outcome.nextRetryAt,
      paymentTransactionId: outcome.paymentTransactionId,
      updatedAt: new Date(),
    },
    sub,
  );
}
