/**
 * Recording a paid link (the link, its paid event, the claim), and the scheduler's sweep that
 * finishes pays whose process died or whose writes failed.
 */
import mongoose from 'mongoose';
import { callMayStillBeRunningMs, type CardSaleResult } from '../acquirer/client';
import { logger } from '../platform/logger';
import { acquirerChargeOutcomeOf, findAcquirerCharge } from '../payments/card-charge';
import {
  effectiveLinkStatus,
  isoWithOffset,
  linkInstallmentPolicy,
  presentLinkInstallments,
} from '../payment-links/service';
import { installmentOption, type InstallmentOption } from '../platform/installments';
import {
  LINK_PAID,
  PaymentClaimModel,
  PaymentLinkModel,
  STATUS_LABELS,
  type PaymentClaim,
  type PaymentLink,
} from '../payment-links/model';
import { recordLinkSale } from '../payment-links/sale';
import { emitLinkEvent } from '../webhooks/service';
import { findSettledSale } from '../sales';
import { type Payment } from '../payments/model';
import { settledSaleEvent } from '../sales/events';
import { emitLinkAccountEvent, recordLinkPaidEvents } from './events';
import { payments, releaseClaim, type HeldPayment } from './pay-claims';

function linkEventData(link: PaymentLink) {
  return {
    id: link._id,
    payment_link_guid: link.guid,
    status: effectiveLinkStatus(link),
    status_label: STATUS_LABELS[effectiveLinkStatus(link)],
    value: link.value,
    number_of_installments: link.installments,
    payment_date: link.paymentDate ? isoWithOffset(link.paymentDate) : null,
  };
}

/**
 * A link's event: an account event (src/checkout/events.ts), and stored for the link's webhook when it
 * has one (emitLinkEvent queues its delivery). A failure is logged, never undoes the payment; false
 * tells the caller the link webhook's event is still owed. `oncePerLink`: an event of this type already
 * stored is the one (emitLinkEvent), so true without storing another; `onceKey`: the same, per key (a
 * refund's events, once per refund).
 */
export async function notify(
  link: PaymentLink,
  type: string,
  extra: Record<string, unknown>,
  { oncePerLink = false, onceKey }: { oncePerLink?: boolean; onceKey?: string } = {},
): Promise<boolean> {
  const data = { ...linkEventData(link), ...extra };
  await emitLinkAccountEvent(link, type, data, onceKey);
  return storeLinkWebhookEvent(link, type, data, { oncePerLink, onceKey });
}

/** The link webhook's copy of an event (the same data; its envelope adds the link's own sequence). */
async function storeLinkWebhookEvent(
  link: PaymentLink,
  type: string,
  data: Record<string, unknown>,
  { oncePerLink = false, onceKey }: { oncePerLink?: boolean; onceKey?: string },
): Promise<boolean> {
  if (!link.webhookUrl) return true;
  try {
    await emitLinkEvent({
      merchantId: link.merchantId,
      linkId: link._id,
      url: link.webhookUrl,
      type,
      data,
      oncePerLink,
      onceKey,
    });
    return true;
  } catch (err) {
    logger.error({ err, linkId: link._id, type }, 'could not store a link webhook event');
    return false;
  }
}

/**
 * The paid events of a link, stored once whoever records the payment: the pay, a pay that took its
 * claim over, or the sweep may each record them, even at the same time (a pay still finishing after
 * its lease while the sweep settles its claim), so each is recorded under its own id (account events)
 * or answered by the one already stored (the link webhook's). The account events: the sale's own when
 * this pay recorded it (a card's sale.captured; a PIX sale's pix.paid is owed by its own move), then
 * payment_link.paid naming the sale (`sale_id`); the link webhook gets the same payment_link.paid.
 * False while any of them is still owed (the claim's outbox mark keeps it for the sweep).
 */
async function notifyPaid(
  paid: PaymentLink,
  payment: NonNullable<PaymentLink['payment']>,
  sale: Payment | null,
): Promise<boolean> {
  const data = {
    ...linkEventData(paid),
    sale_id: paid.saleId ?? null,
    card: payment.method === 'pix' ? null : { brand: payment.brand, last4: payment.last4 },
    payment: { method: payment.method ?? 'card', ...presentLinkInstallments(payment, paid.value) },
    acquirer: { payment_id: payment.acquirerPaymentId, tid: payment.tid ?? null, return_code: payment.returnCode },
  };
  const saleEvent = sale?.origin?.kind === 'payment_link' ? settledSaleEvent(sale) : null;
  const recorded = await recordLinkPaidEvents(paid, data, saleEvent);
  const stored = await storeLinkWebhookEvent(paid, 'payment_link.paid', data, { oncePerLink: true });
  return recorded && stored;
}

/** What a paid link records of the acquirer's answer and of the card. */
export function linkPaymentOf(
  answer: Pick<CardSaleResult, 'paymentId' | 'tid' | 'authorizationCode' | 'returnCode' | 'returnMessage'>,
  card: { brand: string; bin: string; last4: string },
  option: InstallmentOption,
): NonNullable<PaymentLink['payment']> {
  return {
    acquirerPaymentId: answer.paymentId,
    tid: answer.tid ?? null,
    authorizationCode: answer.authorizationCode ?? null,
    returnCode: answer.returnCode,
    returnMessage: answer.returnMessage,
    brand: card.brand,
    bin: card.bin,
    last4: card.last4,
    installments: option.installments,
    total: option.total,
    installmentValue: option.installmentValue,
    interestFree: option.interestFree,
  };
}

/**
 * Records the paid link, owes its event, then records the payment on the claim in one write: state
 * 'paid', what the link records (so the sweep can write the link again if it loses it) and the
 * outbox mark (notifiedAt, null while the event is still owed). Until that write the claim stays
 * 'charging', which is safe at every step: the claim still blocks other pays and the payer and
 * address steps, and should this process die or a write fail, the sweep asks the acquirer by the
 * claim's order id and records the link again through here. So one payment may be recorded by two
 * at once (a pay still finishing past its lease, the sweep or a pay that took its claim over): the
 * paid event is stored once all the same (notifyPaid), at no extra read on a fresh pay.
 */
export async function recordPaid(
  link: PaymentLink,
  claim: HeldPayment,
  payment: NonNullable<PaymentLink['payment']>,
  paymentDate: Date,
): Promise<PaymentLink> {
  // The card sale its refunds go to, recorded first so the paid write names it (src/payment-links/sale.ts).
  const sale = await recordLinkSale(link, payment, paymentDate);
  await PaymentLinkModel.updateOne(
    { _id: link._id },
    { $set: { status: LINK_PAID, paymentDate, payment, saleId: sale._id } },
  );
  const paid: PaymentLink = { ...link, status: LINK_PAID, paymentDate, payment, saleId: sale._id };
  const notified = await notifyPaid(paid, payment, sale);
  // A slow holder whose claim was taken over writes nothing here: its taker, asking the acquirer
  // under the same keys, records the same sale. One whose claim the sweep settled (as its holder)
  // writes that same sale again.
  await claim.update({
    $set: { state: 'paid', payment, paymentDate, notifiedAt: notified ? new Date() : null, eventOwed: !notified },
  });
  return paid;
}

/**
 * Scheduler task: finishes pays whose process died, or whose writes failed, after the claim was
 * taken. Without it only another pay of the same link repaired them, and a payer who left meant a
 * card charged with the link never marked paid. For each stale claim:
 * - still 'charging': the acquirer is asked by the claim's order id. Approved: the link is recorded
 *   paid (even if it has expired since: the payer was charged) and its event stored. Denied or
 *   aborted, or no sale once no call can still be in flight: the claim is released. Anything else
 *   (not final, the query failed): asked again next tick;
 * - 'paid' with its event still owed: the link is written paid again if it lost it, and the event
 *   stored unless one is already there.
 */
export async function settleStalePayments(now = new Date()): Promise<number> {
  const startedBefore = new Date(now.getTime() - callMayStillBeRunningMs());
  // Never looked at first, then the longest unchecked: claims that cannot be settled yet rotate
  // to the back instead of filling every batch.
  const checked = (claim: PaymentClaim) => claim.checkedAt?.getTime() ?? -Infinity;
  const order = (a: PaymentClaim, b: PaymentClaim) =>
    checked(a) - checked(b) || a.startedAt.getTime() - b.startedAt.getTime();
  const stale = (
    await Promise.all(
      OPEN_CLAIMS.map((open) =>
        PaymentClaimModel.find({ ...open, startedAt: mongoose.trusted({ $lt: startedBefore }) })
          .sort({ checkedAt: 1, startedAt: 1 })
          .limit(STALE_PAYMENT_BATCH)
          .lean(),
      ),
    )
  )
    .flat()
    .sort(order)
    .slice(0, STALE_PAYMENT_BATCH);
  let settled = 0;
  for (const claim of stale) {
    let done = false;
    try {
      done = await settleStaleClaim(claim, now);
    } catch (err) {
      logger.warn(
        { err: { message: (err as Error).message }, linkId: claim._id },
        'stale payment claim not settled this tick',
      );
    }
    if (done) settled++;
    // Exactly the claim read (its holder): a claim a pay has just taken over is never written.
    else
      await payments
        .asRead(claim)
        .update({ $set: { checkedAt: now } }, { state: claim.state })
        .catch(() => undefined);
  }
  if (settled) logger.warn({ settled }, 'settled payments left unfinished');
  return settled;
}

/** Each claim may cost an acquirer lookup: a bounded batch keeps the scheduler's tick short. */
const STALE_PAYMENT_BATCH = 50;

/**
 * The claims the sweep may still have work on, each found by an indexed equality: a paid claim
 * stays forever (it is the paid-once guard), so a filter that had to look at every claim
 * (notifiedAt null is not served by an index) would cost the sweep and /metrics the whole
 * collection on every tick and scrape. Charging claims are few; so are paid ones with the event owed.
 */
const OPEN_CLAIMS = [{ state: 'charging' }, { eventOwed: true }] as const;

/**
 * For /metrics: pays the sweep has not finished 10 minutes on (the acquirer cannot tell us, or our writes keep
 * failing).
 */
export async function paymentsNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const startedBefore = new Date(now.getTime() - 10 * 60_000);
  const counts = await Promise.all(
    OPEN_CLAIMS.map((open) =>
      PaymentClaimModel.countDocuments({ ...open, startedAt: mongoose.trusted({ $lt: startedBefore }) }),
    ),
  );
  return { link_payment_unsettled_over_10m: counts[0] + counts[1] };
}

async function settleStaleClaim(claim: PaymentClaim, now: Date): Promise<boolean> {
  const link = await PaymentLinkModel.findById(claim._id).lean();
  if (!link) return false;
  if (claim.state === 'paid') {
    let paid = link;
    let sale: Payment | null = null;
    if (link.status !== LINK_PAID && claim.payment) {
      const paymentDate = claim.paymentDate ?? link.paymentDate ?? now;
      sale = await recordLinkSale(link, claim.payment, paymentDate);
      await PaymentLinkModel.updateOne(
        { _id: link._id },
        { $set: { status: LINK_PAID, paymentDate, payment: claim.payment, saleId: sale._id } },
      );
      paid = { ...link, status: LINK_PAID, paymentDate, payment: claim.payment, saleId: sale._id };
    } else if (paid.payment && paid.payment.method !== 'pix') {
      // The card sale its events name (a PIX sale's own event is owed by its move, not here).
      sale = await findSettledSale(paid.merchantId, { kind: 'payment_link', id: paid._id });
    }
    if (!paid.payment || (await notifyPaid(paid, paid.payment, sale))) {
      await payments.asRead(claim).update({ $set: { notifiedAt: new Date(), eventOwed: false } });
      return true;
    }
    return false;
  }
  const found = await findAcquirerCharge(claim.merchantOrderId, { at: claim.startedAt, mayStillRun: true }, now);
  const held = payments.asRead(claim);
  if (!found.sale) {
    if (!found.conclusive) return false;
    await releaseClaim(held);
    return true;
  }
  const { sale } = found;
  const status = acquirerChargeOutcomeOf(sale.status);
  if (status === 'approved') {
    const masked = sale.card?.maskedNumber;
    const card = { brand: sale.card?.brand ?? '', bin: masked?.slice(0, 6) ?? '', last4: masked?.slice(-4) ?? '' };
    const payment = linkPaymentOf(
      sale,
      card,
      claim.option ?? installmentOption(link.value, link.installments, linkInstallmentPolicy(link)),
    );
    await recordPaid(link, held, payment, new Date());
    return true;
  }
  if (status === 'denied' || status === 'reversed') {
    // This sale will never be a payment.
    await releaseClaim(held);
    return true;
  }
  return false;
}
