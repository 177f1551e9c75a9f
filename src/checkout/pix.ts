/**
 * PIX at the checkout (issue 25): the payer asks for a QR code, pays it in the bank app, and the page
 * learns the outcome by polling. Each QR code is an online PIX sale of the link's merchant, made through
 * the sales pre-capture (so the acquirer's notice, confirmed with a GET, settles it as any PIX sale);
 * this file keeps which sale is the link's current QR code (LinkPixCharge) and turns a paid one into the
 * link's payment through the link's one paid-once claim (pay-claims.ts), as a card pay does.
 */
import QRCode from 'qrcode';
import { isDuplicateKey } from '../db/claims';
import { insertDocument } from '../db/inserts';
import { ApiError, badRequest, conflict } from '../platform/errors';
import { logger } from '../platform/logger';
import { preCapture } from '../sales';
import { SaleGatewayError } from '../payments/gateway-error';
import { PaymentModel, type Payment } from '../payments/model';
import { PaymentNoticeModel } from '../payments/model';
import {
  LINK_PAID,
  LinkPixChargeModel,
  PaymentClaimModel,
  PaymentLinkModel,
  type LinkPixCharge,
  type PaymentLink,
} from '../payment-links/model';
import {
  DEFAULT_PIX_EXPIRES_IN,
  effectiveLinkStatus,
  isoWithOffset,
  linkPaymentMethods,
} from '../payment-links/service';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { ALREADY_PAID, inProgress, payments } from './pay-claims';
import { assertPixMayBeMade, pixCodeFailed, pixCodeMade } from './pix-backoff';
import { notify, recordPaid } from './settlement';
import type { CheckoutPixAnswer } from './schemas';
import { assertPayable, findLink } from './service';

/** A QR code whose sale the acquirer never answered is abandoned after this (the page asks again). */
const CREATING_STALE_MS = 2 * 60_000;

async function newestPix(linkId: number): Promise<LinkPixCharge | null> {
  return LinkPixChargeModel.findOne({ linkId }).sort({ seq: -1 }).lean();
}

function isLive(pix: LinkPixCharge, now: Date): boolean {
  return pix.state === 'waiting' && pix.expiresAt !== null && pix.expiresAt.getTime() > now.getTime();
}

/**
 * The payer's QR code: the live one if there is one (the same for whoever asks), else a new one, once
 * the one before has expired. The payer step must be done (the acquirer needs the payer's name and
 * CPF/CNPJ for a PIX charge).
 */
export async function startLinkPix(guid: string, now = new Date()): Promise<CheckoutPixAnswer> {
  const link = await findLink(guid);
  if (!linkPaymentMethods(link).includes('pix')) {
    throw badRequest({ payment_method: ['This payment link is not paid by PIX.'] });
  }
  assertPayable(link, now);
  const document = normalizeDocument(link.document);
  if (!link.payerName || !documentKind(document)) {
    throw badRequest({ document: ['Complete the payer step first: a PIX charge needs the payer name and CPF/CNPJ.'] });
  }
  let newest = await settleNewest(link, now);
  if (newest && (isLive(newest, now) || ['paid', 'paid_twice', 'returned'].includes(newest.state))) {
    return presentPix(link, newest, now);
  }
  if (newest?.state === 'creating' && now.getTime() - newest.createdAt.getTime() < CREATING_STALE_MS) {
    throw inProgress();
  }
  // Only here, where the acquirer is about to be asked: a live code is answered without a look at the wait.
  const backoff = await assertPixMayBeMade(link._id, now);
  // A card pay deciding, or one that paid the link after this request read it as payable: no code either
  // way (one made for a paid link would be a second payment, given back only after its payer paid it).
  const held = await PaymentClaimModel.findById(link._id, { state: 1 }).lean();
  if (held?.state === 'paid') throw conflict(ALREADY_PAID);
  if (held) throw inProgress();
  const seq = (newest?.seq ?? 0) + 1;
  try {
    newest = await insertDocument(LinkPixChargeModel, {
      _id: `${link._id}.${seq}`,
      linkId: link._id,
      seq,
      state: 'creating',
      saleId: null,
      qrCode: '',
      expiresAt: null,
      createdAt: now,
      settledAt: null,
    });
  } catch (error) {
    if (isDuplicateKey(error)) throw inProgress(); // another payer is making this QR code: the page asks again
    throw error;
  }
  const lifetime = Math.min(
    link.pixExpiresIn ?? DEFAULT_PIX_EXPIRES_IN,
    Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000),
  );
  try {
    const { sale } = await preCapture(
      link.merchantId,
      {
        payment_method: 'pix',
        value: link.value,
        installments: 1,
        save_card: false,
        payer: { name: link.payerName, document },
        order_reference: `payment_link ${link._id} pix ${seq}`,
        pix_expires_in: Math.max(60, lifetime),
      },
      // A retry of this very QR code (a crash between the acquirer and here) replays the same sale.
      `payment-link-pix-${newest._id}`,
    );
    const expiresAt = sale.pix?.expires_at ? new Date(sale.pix.expires_at) : null;
    const state = sale.sale_status === 'PENDING' ? 'waiting' : 'failed';
    // The wait counts from the acquirer's answer (a slow failure must not have used it up already).
    if (state === 'failed') await pixCodeFailed(link._id, backoff, new Date());
    else await pixCodeMade(link._id, backoff);
    await LinkPixChargeModel.updateOne(
      { _id: newest._id },
      { $set: { state, saleId: sale.id, qrCode: sale.pix?.qr_code ?? '', expiresAt } },
    );
    newest = { ...newest, state, saleId: sale.id, qrCode: sale.pix?.qr_code ?? '', expiresAt };
  } catch (error) {
    // The acquirer failed it (our own store failing is no reason for the link to wait): the wait first.
    const atAcquirer = error instanceof SaleGatewayError ? error : null;
    const retryAfter = atAcquirer && (await pixCodeFailed(link._id, backoff, new Date()));
    await LinkPixChargeModel.updateOne({ _id: newest._id, state: 'creating' }, { $set: { state: 'failed' } });
    if (atAcquirer) {
      throw new ApiError(atAcquirer.status, atAcquirer.body, { ...atAcquirer.headers, 'Retry-After': `${retryAfter}` });
    }
    throw error;
  }
  // Counted from after the acquirer's answer: its code's lifetime starts there, not when this request did.
  return presentPix(link, newest, new Date());
}

/** The page's poll: the newest QR code's state, after settling it from its sale. */
export async function linkPixStatus(guid: string, now = new Date()): Promise<CheckoutPixAnswer> {
  const link = await findLink(guid);
  const newest = await settleNewest(link, now);
  return presentPix(link, newest, now);
}

/** Settles the newest QR code from its sale (paid, or expired) and returns it as it now is. */
async function settleNewest(link: PaymentLink, now: Date): Promise<LinkPixCharge | null> {
  const newest = await newestPix(link._id);
  if (!newest || newest.state !== 'waiting' || newest.saleId === null) return newest;
  const sale = await PaymentModel.findById(newest.saleId).lean();
  return sale ? settlePixCharge(link, newest, sale, now) : newest;
}

/**
 * Settles one QR code from its sale. A paid one becomes the link's payment when it takes the link's
 * paid-once claim; when the link was already paid (by card, or by another QR code) it is a second
 * payment: kept as `paid_twice`, never the link's payment, counted in needs_attention until its money
 * goes back. An unpaid one past its expiry ends as expired (one payment_link.pix_expired event).
 */
export async function settlePixCharge(
  link: PaymentLink,
  pix: LinkPixCharge,
  sale: Payment,
  now = new Date(),
): Promise<LinkPixCharge> {
  if (pix.state !== 'waiting') return pix;
  if (sale.status === 'CONFIRMED') {
    const held = await PaymentClaimModel.findById(link._id).lean();
    // A pay is deciding (a card's, or this very PIX settled by a poll and its notice at once): settled later.
    if (held?.state === 'charging') return pix;
    // This PIX paid the link, recorded by a concurrent settle of it (the page's poll beside the acquirer's
    // notice): the same payment, not a second one. Before, the later settle called it paid twice.
    if (held?.state === 'paid' && held.attemptKey === pixAttemptKey(pix)) return endPix(link, pix, 'paid', now);
    if (held?.state === 'paid' || effectiveLinkStatus(link, now) === LINK_PAID) {
      return endPix(link, pix, 'paid_twice', now, async () => {
        logger.warn({ linkId: link._id, saleId: sale._id }, 'a PIX of a link already paid was paid: money to return');
        await notify(
          link,
          'payment_link.paid_twice',
          { payment: { method: 'pix', sale_id: sale._id, total: sale.amountCents } },
          { onceKey: `paid_twice:${pix._id}` },
        );
      });
    }
    const outcome = await payments.claim(link._id, () => ({
      attemptKey: pixAttemptKey(pix),
      merchantOrderId: sale.merchantOrderId,
      state: 'charging',
    }));
    if (!outcome.claimed) return pix; // taken meanwhile: the next poll or notice sees who paid
    const paidAt = sale.pix?.paidAt ?? now;
    await recordPaid(
      link,
      outcome.claim,
      {
        acquirerPaymentId: sale.acquirer?.paymentId ?? '',
        tid: null,
        authorizationCode: null,
        returnCode: sale.acquirer?.returnCode ?? '',
        returnMessage: sale.acquirer?.returnMessage ?? '',
        brand: '',
        bin: '',
        last4: '',
        method: 'pix',
        installments: 1,
        total: sale.amountCents,
        installmentValue: sale.amountCents,
        interestFree: true,
      },
      paidAt,
    );
    return endPix(link, pix, 'paid', now);
  }
  const expired = pix.expiresAt !== null && pix.expiresAt.getTime() <= now.getTime();
  if (sale.status === 'EXPIRED' || sale.status === 'FAILED' || (expired && sale.status === 'PENDING')) {
    return endPix(link, pix, 'expired', now, () =>
      notify(
        link,
        'payment_link.pix_expired',
        { pix: { sale_id: sale._id, expires_at: pix.expiresAt ? isoWithOffset(pix.expiresAt) : null } },
        { onceKey: `pix_expired:${pix._id}` },
      ).then(() => undefined),
    );
  }
  return pix;
}

/** The link's paid-once claim as a QR code takes it: whoever settles that code knows the claim for its own. */
const pixAttemptKey = (pix: LinkPixCharge) => `pix-${pix._id}`;

/**
 * Moves a waiting QR code to its end; whoever wins the move runs `then` (its event). On FerretDB two
 * conditional updates can both win, so the events are stored once by their own key (notify's onceKey).
 */
async function endPix(
  link: PaymentLink,
  pix: LinkPixCharge,
  state: LinkPixCharge['state'],
  now: Date,
  then?: () => Promise<void>,
): Promise<LinkPixCharge> {
  const moved = await LinkPixChargeModel.updateOne(
    { _id: pix._id, state: 'waiting' },
    { $set: { state, settledAt: now } },
  );
  if (moved.modifiedCount === 1 && then) await then();
  return { ...pix, state, settledAt: now };
}

export interface SettledLinkPix {
  pixId: string;
  linkId: number;
  merchantId: number;
  saleId: number;
  state: LinkPixCharge['state'];
}

/** After the acquirer's notice moved a sale: the link whose QR code it is, settled (the notice worker). */
export async function settleLinkPixOfNotice(noticeId: string, now = new Date()): Promise<SettledLinkPix | null> {
  const notice = await PaymentNoticeModel.findById(noticeId).lean();
  if (!notice) return null;
  const sale = await PaymentModel.findOne({ acquirerPaymentId: notice.paymentId }).lean();
  if (!sale || sale.paymentMethod !== 'pix') return null;
  const pix = await LinkPixChargeModel.findOne({ saleId: sale._id }).lean();
  if (!pix) return null;
  const link = await PaymentLinkModel.findById(pix.linkId).lean();
  if (!link) return null;
  const { state } = await settlePixCharge(link, pix, sale, now);
  // Paid while a card pay of the link holds its claim: which one is the link's payment is known once that
  // pay ends, so the notice job is retried then (the notice itself is not applied twice).
  if (state === 'waiting' && sale.status === 'CONFIRMED') {
    throw new Error(`payment link ${link._id}: a card pay holds the link while its PIX was paid; settled on retry`);
  }
  return { pixId: pix._id, linkId: link._id, merchantId: link.merchantId, saleId: sale._id, state };
}

/**
 * The sweep's half of settling QR codes (src/refunds/second-payments.ts runs it each scheduler tick): a code
 * whose sale moved but which nobody settled. A code paid while a card pay held the link is settled by its
 * notice job's retries, which can run out before a dead pay's claim is released, and no page may poll: it
 * stayed waiting, neither the link's payment nor a second payment given back. Each waiting code whose sale
 * is paid, or past its expiry, is settled as a poll would settle it (a pay still deciding leaves it for the
 * next tick). Returns the codes it moved.
 */
export async function settleWaitingLinkPix(now = new Date()): Promise<number> {
  let moved = 0;
  for (const pix of await LinkPixChargeModel.find({ state: 'waiting' }).lean()) {
    if (pix.saleId === null) continue;
    const sale = await PaymentModel.findById(pix.saleId).lean();
    const expired = pix.expiresAt !== null && pix.expiresAt.getTime() <= now.getTime();
    if (!sale || (sale.status === 'PENDING' && !expired)) continue;
    const link = await PaymentLinkModel.findById(pix.linkId).lean();
    if (link && (await settlePixCharge(link, pix, sale, now)).state !== 'waiting') moved++;
  }
  return moved;
}

/** The QR codes paid after their link was whose money has not gone back yet, with what giving it back needs. */
export async function linkPixPaidTwice(): Promise<SettledLinkPix[]> {
  const owed: SettledLinkPix[] = [];
  for (const pix of await LinkPixChargeModel.find({ state: 'paid_twice' }).lean()) {
    const link = await PaymentLinkModel.findById(pix.linkId).lean();
    if (link && pix.saleId !== null)
      owed.push({
        pixId: pix._id,
        linkId: link._id,
        merchantId: link.merchantId,
        saleId: pix.saleId,
        state: pix.state,
      });
  }
  return owed;
}

/** A second payment's refund was asked for (src/refunds): it no longer needs anyone's attention. */
export async function markPixReturned(pixId: string): Promise<void> {
  await LinkPixChargeModel.updateOne({ _id: pixId, state: 'paid_twice' }, { $set: { state: 'returned' } });
}

/** For /metrics: PIX paid on links already paid, whose money has not gone back yet. */
export async function linkPixNeedingAttention(): Promise<Record<string, number>> {
  return { link_pix_paid_twice: await LinkPixChargeModel.countDocuments({ state: 'paid_twice' }) };
}

/** Images of the codes waiting now, newest last: a payer's page asks every 3 s while its code waits. */
const qrCodeImages = new Map<string, Promise<string>>();
const QR_CODE_IMAGES_KEPT = 500;

/** The code as a PNG `data:` URL, drawn once per code while it is among the newest (the page's CSP allows data:). */
function qrCodeImageOf(qrCode: string): Promise<string> {
  let image = qrCodeImages.get(qrCode);
  if (!image) {
    image = QRCode.toDataURL(qrCode, { errorCorrectionLevel: 'M', margin: 1, width: 256 });
    image.catch(() => qrCodeImages.delete(qrCode));
    qrCodeImages.set(qrCode, image);
    if (qrCodeImages.size > QR_CODE_IMAGES_KEPT) qrCodeImages.delete(qrCodeImages.keys().next().value!);
  }
  return image;
}

async function presentPix(link: PaymentLink, pix: LinkPixCharge | null, now: Date): Promise<CheckoutPixAnswer> {
  const status = !pix
    ? 'none'
    : pix.state === 'waiting' && !isLive(pix, now)
      ? 'expired'
      : pix.state === 'creating'
        ? 'creating'
        : pix.state;
  const showCode = status === 'waiting';
  return {
    status,
    // The link read before this request settled its code may not say paid yet: the code does.
    linkPaid: pix?.state === 'paid' || effectiveLinkStatus(link, now) === LINK_PAID,
    amount: link.value,
    qrCode: showCode ? pix!.qrCode : null,
    // Drawn here from the copy-and-paste text (the page's CSP allows data: images, no third party).
    qrCodeImage: showCode ? await qrCodeImageOf(pix!.qrCode) : null,
    expiresAt: pix?.expiresAt ? isoWithOffset(pix.expiresAt) : null,
    secondsLeft: showCode ? Math.max(0, Math.floor((pix!.expiresAt!.getTime() - now.getTime()) / 1000)) : null,
  };
}
