/**
 * The account events of subscriptions (src/events): created, cancelled, and each charge outcome
 * (confirmed, denied per attempt with its nextRetryAt, refunded), the objects as the API shows them.
 */
import { emitEvent } from '../events/recording';
import {
  ChargeStatus,
  type ChargeAttempt,
  type MandateStatus,
  type Subscription,
  type SubscriptionCharge,
} from './model';
import { chargeView, subscriptionView } from './views';

export async function emitSubscriptionEvent(
  type: 'subscription.created' | 'subscription.cancelled',
  sub: Subscription,
): Promise<void> {
  await emitEvent({ merchantId: sub.merchantId, type, objectId: sub._id, data: subscriptionView(sub) });
}

const MANDATE_EVENTS = {
  APPROVED: 'subscription.mandate_approved',
  REJECTED: 'subscription.mandate_rejected',
  EXPIRED: 'subscription.mandate_expired',
  CANCELLED: 'subscription.mandate_cancelled',
} as const;

/** A Pix Automático mandate's move, confirmed by the acquirer: once per subscription and state (its event id). */
export async function emitMandateEvent(status: MandateStatus, sub: Subscription): Promise<void> {
  if (status === 'CREATED') return;
  await emitEvent({
    merchantId: sub.merchantId,
    type: MANDATE_EVENTS[status],
    objectId: sub._id,
    data: subscriptionView(sub),
  });
}

/** The event of a charge's current status: denied once per attempt, the others once per charge. */
export async function emitChargeEvent(charge: SubscriptionCharge, sub: Subscription): Promise<void> {
  const type =
    charge.status === ChargeStatus.CONFIRMED
      ? 'subscription_charge.confirmed'
      : charge.status === ChargeStatus.DENIED
        ? 'subscription_charge.denied'
        : charge.status === ChargeStatus.REFUNDED
          ? 'subscription_charge.refunded'
          : null;
  if (!type) return;
  await emitEvent({
    merchantId: sub.merchantId,
    type,
    objectId: charge._id,
    change: charge.status === ChargeStatus.DENIED ? `denied_${charge.attempts}` : undefined,
    data: chargeView(charge, sub),
  });
}

/** The charge once an attempt's outcome is applied to it (charging.ts writes these fields). */
export async function emitChargeOutcome(charge: SubscriptionCharge, outcome: ChargeAttempt, sub: Subscription) {
  await emitChargeEvent(
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
