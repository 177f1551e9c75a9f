/**
 * A payment link's QR code paid after the link already was (by card, or by another code) is a second
 * payment: never the link's, its whole value goes back to the payer through this core, once (its
 * Idempotency-Key replays). The notice worker gives it back as it settles the code; the scheduler's tick
 * settles what the notice could not (a code paid while a card pay held the link, whose notice job ran out
 * of retries) and gives back any second payment still owed, so none is kept by a missed job.
 */
import { linkPixPaidTwice, markPixReturned, settleWaitingLinkPix, type SettledLinkPix } from '../checkout/pix';
import { ApiError } from '../platform/errors';
import { logger } from '../platform/logger';
import { refundSaleWithKey } from './idempotency-keys';

/** Gives a second payment back; an answer that nothing is left to refund means it went back already. */
export async function returnSecondPayment(pix: SettledLinkPix): Promise<void> {
  try {
    await refundSaleWithKey(
      pix.merchantId,
      pix.saleId,
      { reason: 'duplicate', metadata: { payment_link_id: String(pix.linkId) } },
      `payment-link-pix-paid-twice-${pix.pixId}`,
    );
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 422)) throw error;
    logger.warn(
      { linkId: pix.linkId, saleId: pix.saleId, detail: error.body },
      'second PIX of a link: nothing left to refund',
    );
  }
  await markPixReturned(pix.pixId);
}

/** The scheduler's task: QR codes left waiting though their sale moved are settled, second payments given back. */
export async function settleLinkPixCodes(now: Date): Promise<number> {
  const moved = await settleWaitingLinkPix(now);
  let returned = 0;
  for (const pix of await linkPixPaidTwice()) {
    try {
      await returnSecondPayment(pix);
      returned++;
    } catch (err) {
      logger.error(
        { err, linkId: pix.linkId, saleId: pix.saleId },
        'second PIX of a link not given back yet; next tick',
      );
    }
  }
  if (moved || returned) logger.info({ moved, returned }, 'payment link QR codes settled by the sweep');
  return moved + returned;
}
