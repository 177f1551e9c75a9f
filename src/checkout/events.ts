/**
 * A link's events are account events too (src/events), whether or not the link has a webhookUrl:
 * payment_link.paid once per link, payment_link.payment_denied once per denied pay, and per PIX QR
 * code payment_link.pix_expired or payment_link.paid_twice (the code's key makes each once).
 */
import crypto from 'node:crypto';
import { emitEvent } from '../events/recording';
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

export async function emitLinkAccountEvent(
  link: PaymentLink,
  type: string,
  data: object,
  onceKey?: string,
): Promise<void> {
  const changeOf = CHANGE_OF[type as EventType];
  if (!changeOf) return;
  await emitEvent({
    merchantId: link.merchantId,
    type: type as EventType,
    objectId: link._id,
    change: changeOf(onceKey),
    data,
  });
}
