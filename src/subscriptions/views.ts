/** A subscription and its charges as the API shows them (the routes, the account events). */
import { getConfig } from '../../config';
import type { ChargeAnswer, MandateAnswer, SubscriptionAnswer } from './schemas';
import { ChargeStatus, type Mandate, type Subscription, type SubscriptionCharge } from './model';

export function subscriptionView(sub: Subscription): SubscriptionAnswer {
  return {
    id: sub._id,
    status: sub.status,
    value: sub.value,
    amount: sub.value / 100,
    billingCycle: sub.billingCycle,
    firstDueDate: sub.firstDueDate,
    nextDueDate: sub.status === 'active' ? sub.nextDueDate : null,
    endDate: sub.endDate ?? null,
    maxCycles: sub.maxCycles ?? null,
    retry: sub.retry,
    card: sub.card?.token
      ? {
          brand: sub.card.brand,
          bin: sub.card.bin,
          last4: sub.card.last4,
          holder: sub.card.holder,
          expMonth: sub.card.expMonth,
          expYear: sub.card.expYear,
        }
      : null,
    customer: { name: sub.customer.name, identity: sub.customer.identity ?? null },
    description: sub.description ?? null,
    cancelledAt: sub.cancelledAt ? sub.cancelledAt.toISOString() : null,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
    // Only on a Pix Automático subscription: a card subscription's answer keeps the contract's keys alone.
    ...(sub.mandate
      ? {
          paymentMethod: 'pix_automatico' as const,
          mandate: mandateView(sub.mandate),
          cycleValues: { ...(sub.cycleValues ?? {}) },
        }
      : {}),
  };
}

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

/** The payer's authorisation page (src/checkout): what the merchant sends the payer to show the QR code. */
export function authorizationUrlOf(pageToken: string): string {
  return `${getConfig().publicBaseUrl}/checkout/pix-automatico/${pageToken}`;
}

export function mandateView(mandate: Mandate): MandateAnswer {
  const waiting = mandate.status === 'CREATED';
  return {
    status: mandate.status,
    authorizationUrl: mandate.pageToken ? authorizationUrlOf(mandate.pageToken) : null,
    journey: mandate.journey,
    acquirerRecurrenceId: mandate.recurrenceId,
    retryPolicy: mandate.retryPolicy,
    amountType: mandate.amountType,
    minimumValue: mandate.minimumValue ?? null,
    maximumValue: mandate.maximumValue ?? null,
    qrCodeImage: waiting ? mandate.qrCodeImage : null,
    qrCodeText: waiting ? mandate.qrCodeText : null,
    expiresAt: iso(mandate.expiresAt),
    approvedAt: iso(mandate.approvedAt),
    rejectedAt: iso(mandate.rejectedAt),
    expiredAt: iso(mandate.expiredAt),
    rejection: mandate.status === 'REJECTED' ? { code: mandate.reasonCode ?? '', reason: mandate.reason ?? '' } : null,
    cancellation:
      mandate.status === 'CANCELLED'
        ? {
            by: mandate.cancelledBy ?? 'payer',
            at: iso(mandate.cancelledAt) ?? '',
            code: mandate.reasonCode ?? '',
            reason: mandate.reason ?? '',
          }
        : null,
  };
}

/** One charge exactly as the spec's Subscription charge table describes it. */
export function chargeView(charge: SubscriptionCharge, sub: Pick<Subscription, 'retry' | 'status'>): ChargeAnswer {
  const denied = charge.status === ChargeStatus.DENIED;
  const confirmedOnce = charge.status === ChargeStatus.CONFIRMED || charge.status === ChargeStatus.REFUNDED;
  return {
    id: charge._id,
    subscriptionId: charge.subscriptionId,
    status: charge.status,
    value: charge.value,
    amount: charge.value / 100,
    dueDate: charge.dueDate,
    acquirerPaymentId: charge.acquirerPaymentId ?? '',
    denialCode: denied ? charge.denialCode : '',
    denialMessage: denied ? charge.denialMessage : '',
    attempts: sub.retry ? charge.attempts : 1,
    nextRetryAt: denied && sub.retry && sub.status === 'active' ? (charge.nextRetryAt ?? null) : null,
    paymentTransactionId: confirmedOnce ? (charge.paymentTransactionId ?? null) : null,
    createdAt: charge.createdAt.toISOString(),
    updatedAt: charge.updatedAt.toISOString(),
    ...refundedValueOf(charge),
  };
}

/**
 * Shown once something was refunded, so a charge never refunded reads as the contract shows it; a
 * charge REFUNDED whole before partial refunds existed gave back all of its value.
 */
function refundedValueOf(charge: SubscriptionCharge): { refunded_value?: number } {
  if (charge.refundedValue) return { refunded_value: charge.refundedValue };
  return charge.status === ChargeStatus.REFUNDED ? { refunded_value: charge.value } : {};
}
