/**
 * A link's events are account events too (src/events), whether or not the link has a webhookUrl:
 * payment_link.paid once per link, payment_link.payment_denied once per denied pay, and per PIX QR
 * code payment_link.pix_expired or payment_link.paid_twice (the code's key makes each once).
 *
 * A paid link tells one story whatever the method: its sale's event first, as a sale of the sales API
 * reaching CONFIRMED emits it (a card's sale.captured, recorded here with the paid event; a PIX's
 * pix.paid, owed by the PIX sale's own move in src/sales), then payment_link.paid naming that sale.
 */
import crypto from 'node:crypto';
import { emitEvent, recordEvents, type NewEvent } from '../events/recording';
import { logger } from '../platform/logger';
import type { EventType } from '../webhooks/event-types';
import type { PaymentLink } from '../payment-links/model';

/** What makes each account event of a link unique for it (the event id's change); the link's other events are not. */
const CHANGE_OF: Partial<Record<EventType, (onceKey: string | undefined) => string>> = {
  'payment_link.paid': () => 'paid',
  'payment_link.payment_denied': () => `payment_denied_${crypto.randomBytes(6).toString('hex')}`,
  // The code's key (paid_twice:<link>.<n>): one event per QR code.
  'payment_link.pix_expired': (onceKey) => onceKey!.replace(/[:.]/g, '_'),
  'payment_link.paid_twice': (onceKey) => onceKey!.replace(/[:.]/g, '_'),
};

/** The account event of a link's event, or null for a type that is the link webhook's only (a refund's outcome). */
function linkAccountEvent(link: PaymentLink, type: string, data: object, onceKey?: string): NewEvent | null {
  const changeOf = CHANGE_OF[type as EventType];
  if (!changeOf) return null;
  return { merchantId: link.merchantId, type: type as EventType, objectId: link._id, change: changeOf(onceKey), data };
}

export async function emitLinkAccountEvent(
  link: PaymentLink,
  type: string,
  data: object,
  onceKey?: string,
): Promise<void> {
  const event = linkAccountEvent(link, type, data, onceKey);
  if (event) await emitEvent(event);
}

/**
 * A paid link's account events, its sale's (when this pay owes it) then payment_link.paid, in one insert
 * (the sale's event knows its sequence: no read for it). Each is recorded once by its id, whoever records
 * the payment. False when they could not be recorded: the claim then keeps them owed (src/checkout/settlement.ts).
 */
export async function recordLinkPaidEvents(
  link: PaymentLink,
  data: object,
  saleEvent: NewEvent | null,
): Promise<boolean> {
  const paid = linkAccountEvent(link, 'payment_link.paid', data)!;
  const at = new Date();
  try {
    await recordEvents([saleEvent, paid].filter((e): e is NewEvent => !!e).map((event) => ({ event, at })));
    return true;
  } catch (err) {
    logger.error({ err, linkId: link._id }, "could not record a paid link's account events; the claim keeps them owed");
    return false;
  }
}
