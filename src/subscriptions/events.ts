/**
 * The account events of subscriptions (src/events): created, cancelled, and each charge outcome
 * (confirmed, denied per attempt with its nextRetryAt, refunded), the objects as the API shows them.
 */
import type { NewEvent } from '../events/recording';
import { ChargeStatus, type ChargeAttempt, type Subscription, type SubscriptionCharge } from './model';
import { chargeView, subscriptionView } from './views';

export function subscriptionEvent(
  type: 'subscription.created' | 'subscription.cancelled',
  sub: Subscription,
): NewEvent {
  return { merchantId: sub.merchantId, type, objectId: sub._id, data: subscriptionView(sub) };
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
