/**
 * A link's events are account events too (src/events), whether or not the link has a webhookUrl:
 * payment_link.paid once per link, payment_link.payment_denied once per denied pay.
 */
import crypto from 'node:crypto';
import { emitEvent } from '../events/recording';
import type { PaymentLink } from '../payment-links/model';

export async function emitLinkAccountEvent(link: PaymentLink, type: string, data: object): Promise<void> {
  if (type !== 'payment_link.paid' && type !== 'payment_link.payment_denied') return;
  await emitEvent({
    merchantId: link.merchantId,
    type,
    objectId: link._id,
    change: type === 'payment_link.paid' ? 'paid' : `payment_denied_${crypto.randomBytes(6).toString('hex')}`,
    data,
  });
}
