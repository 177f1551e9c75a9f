/**
 * Account events as a receiver gets them: a payload type per event type, and verifyWebhook, which
 * checks a delivery's Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature:
 * "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>", several space-separated during a secret's
 * rotation) and returns the typed event, or throws WebhookVerificationError.
 */
import crypto from 'node:crypto';
import type { AccountEvent, OnlineSale, Refund, Subscription, SubscriptionCharge } from './generated-types';

/** A payment link as its events carry it (payment_link.*). */
export interface PaymentLinkEventData {
  id: number;
  payment_link_guid: string;
  status: number;
  status_label: string;
  value: number;
  number_of_installments: number;
  payment_date: string | null;
  /** paid: the sale the payment is (a card's sale.captured or a PIX's pix.paid came before); refund the link there. */
  sale_id?: number | null;
  /** null when paid by PIX. */
  card?: { brand: string; last4: string } | null;
  acquirer?: { payment_id: string; tid: string | null; return_code: string };
  denial?: { return_code: string; return_message: string };
  /** paid: how it was paid; paid_twice: the second PIX sale (its money goes back by itself). */
  payment?: {
    method: 'card' | 'pix';
    sale_id?: number;
    total?: number;
    installments?: number;
    installment_value?: number;
    interest_free?: boolean;
  };
  /** pix_expired: the QR code's sale and when it expired. */
  pix?: { sale_id: number; expires_at: string | null };
}

/** A chargeback as its events carry it (chargeback.*). */
export interface ChargebackEventData {
  id: string;
  establishmentNumber: string;
  idChargeback: string;
  idCase: string | null;
  status: string;
  receptionDate: string | null;
  treatmentDeadline: string | null;
  acceptedAt: string | null;
  refusedAt: string | null;
  outcomeAt: string | null;
  item: Record<string, unknown> | null;
  lifecycle: { action: string; actionDate: string }[];
}

/** The object each event type carries. */
export interface EventDataByType {
  'sale.authorized': OnlineSale;
  'sale.denied': OnlineSale;
  'sale.captured': OnlineSale;
  'sale.cancelled': OnlineSale;
  'sale.refunded': OnlineSale;
  'refund.pending': Refund;
  'refund.succeeded': Refund;
  'refund.failed': Refund;
  'pix.paid': OnlineSale;
  'pix.expired': OnlineSale;
  'payment_link.paid': PaymentLinkEventData;
  'payment_link.payment_denied': PaymentLinkEventData;
  'payment_link.pix_expired': PaymentLinkEventData;
  'payment_link.paid_twice': PaymentLinkEventData;
  'subscription.created': Subscription;
  'subscription.cancelled': Subscription;
  'subscription.mandate_approved': Subscription;
  'subscription.mandate_rejected': Subscription;
  'subscription.mandate_expired': Subscription;
  'subscription.mandate_cancelled': Subscription;
  'subscription_charge.confirmed': SubscriptionCharge;
  'subscription_charge.denied': SubscriptionCharge;
  'subscription_charge.refunded': SubscriptionCharge;
  'chargeback.received': ChargebackEventData;
  'chargeback.updated': ChargebackEventData;
  'chargeback.accepted': ChargebackEventData;
  'chargeback.refused': ChargebackEventData;
}

export type AccountEventType = keyof EventDataByType;

/** One event of type T: switch on `type` and `data` is that type's object. */
export type AccountWebhookEventOf<T extends AccountEventType> = Omit<AccountEvent, 'type' | 'data'> & {
  type: T;
  data: EventDataByType[T];
};

/** Any account event, discriminated by `type`. */
export type AccountWebhookEvent = { [T in AccountEventType]: AccountWebhookEventOf<T> }[AccountEventType];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far the webhook-timestamp may be from now (replays), in seconds; default 300. */
  toleranceSeconds?: number;
  now?: Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value =
    typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get(name)
      : ((headers as Record<string, string | string[] | undefined>)[name] ??
        Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]);
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

/**
 * Verifies a delivery and returns its event. `body` must be the raw body as received (a string or the
 * bytes: not re-serialised JSON), `secret` the endpoint's whsec_... secret.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): AccountWebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds))
    throw new WebhookVerificationError('invalid webhook-timestamp');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp too far from now');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  const matches = signatures.split(' ').some((signature) => {
    const [version, value] = signature.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no matching signature');
  const event = JSON.parse(text) as AccountWebhookEvent;
  if (event.id !== id) throw new WebhookVerificationError('the body is not the event the webhook-id names');
  return event;
}
