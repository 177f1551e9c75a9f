/**
 * Every type of account event, what causes it, and which kind of object it carries (as the API shows
 * that object). An endpoint subscribes to some of them, or to '*'. docs/api/events.md shows each
 * with an example; the typed client (clients/typescript) exports a payload type per entry.
 */
export const EVENT_TYPES = {
  'sale.authorized': { object: 'sale', doc: 'A card sale was authorized (not yet captured)' },
  'sale.denied': { object: 'sale', doc: 'A card sale was denied by the issuer or the acquirer' },
  'sale.captured': { object: 'sale', doc: 'A card sale was captured (at authorization or later)' },
  'sale.cancelled': { object: 'sale', doc: 'A card sale was cancelled (voided) in full' },
  'sale.refunded': { object: 'sale', doc: 'A captured card sale was refunded (in part or in full)' },
  'refund.pending': { object: 'refund', doc: 'A refund was accepted and waits for the acquirer' },
  'refund.succeeded': { object: 'refund', doc: 'The acquirer settled a refund' },
  'refund.failed': { object: 'refund', doc: 'The acquirer refused a refund' },
  'pix.paid': { object: 'sale', doc: 'A PIX charge was paid' },
  'pix.expired': { object: 'sale', doc: 'A PIX charge expired unpaid' },
  'payment_link.paid': {
    object: 'payment_link',
    doc: 'A payment link was paid; sale_id names its sale, whose own event (sale.captured or pix.paid) came first',
  },
  'payment_link.payment_denied': { object: 'payment_link', doc: 'A payment attempt on a link was denied' },
  'payment_link.pix_expired': { object: 'payment_link', doc: "A link's PIX QR code expired unpaid" },
  'payment_link.paid_twice': {
    object: 'payment_link',
    doc: 'A PIX QR code of a link already paid was paid too: that money goes back to the payer by itself',
  },
  'subscription.created': { object: 'subscription', doc: 'A subscription was created' },
  'subscription.cancelled': { object: 'subscription', doc: 'A subscription was cancelled' },
  'subscription.mandate_approved': {
    object: 'subscription',
    doc: "The payer authorised a Pix Automático subscription's mandate (journey 3: and paid the first charge)",
  },
  'subscription.mandate_rejected': {
    object: 'subscription',
    doc: "The payer refused a Pix Automático subscription's mandate; the subscription is cancelled",
  },
  'subscription.mandate_expired': {
    object: 'subscription',
    doc: "A Pix Automático subscription's authorisation QR code expired unused; the subscription is cancelled",
  },
  'subscription.mandate_cancelled': {
    object: 'subscription',
    doc: "A Pix Automático subscription's mandate was cancelled by the merchant or the payer (mandate.cancellation)",
  },
  'subscription_charge.confirmed': { object: 'subscription_charge', doc: 'A subscription charge was paid' },
  'subscription_charge.denied': {
    object: 'subscription_charge',
    doc: 'An attempt of a subscription charge was denied; nextRetryAt says when it is tried again (null: never)',
  },
  'subscription_charge.refunded': { object: 'subscription_charge', doc: 'A paid subscription charge was refunded' },
  'chargeback.received': { object: 'chargeback', doc: 'The acquirer opened a chargeback on a sale' },
  'chargeback.updated': { object: 'chargeback', doc: 'A chargeback moved one step in its lifecycle' },
  'chargeback.accepted': { object: 'chargeback', doc: 'The merchant accepted a chargeback' },
  'chargeback.refused': { object: 'chargeback', doc: 'The merchant refused (disputed) a chargeback' },
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export type EventObjectKind = (typeof EVENT_TYPES)[EventType]['object'];

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** What an endpoint subscribes to: '*' alone, or event types. */
export const ALL_EVENTS = '*';

export function subscribes(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes(ALL_EVENTS) || enabledEvents.includes(type);
}
