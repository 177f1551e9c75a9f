/**
 * The public checkout of a payment link: load, payer step, address step, pay step.
 *
 * Exactly one pay charges: before calling the acquirer the pay step inserts a PaymentClaim whose
 * _id is the link id. On FerretDB two conditional updates can both "win", an insert under a unique
 * _id cannot. A denial or transport failure deletes the claim (the link stays payable); a paid link
 * keeps it. A claim left behind by a crashed process is taken over once no acquirer call of it can
 * still be running (callMayStillBeRunningMs) with the same acquirer idempotency key, so the acquirer
 * replays the sale it may have made instead of charging twice.
 *
 * A paid link is a captured sale (capture: true): the payer is charged at once, nothing to capture later.
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import { callMayStillBeRunningMs, type AcquirerCardBrand } from '../acquirer/client';
import { chargeCard, chargeStatusOf, findCharge, type CardCharge } from '../payments/card-charge';
import { cardBrand, CardError, decryptCard, publicKeyPem, summarizeCard } from '../cards';
import { Claims, type HeldClaim } from '../db/claims';
import { ApiError, badRequest, conflict, notFound } from '../http/errors';
import { logger } from '../logger';
import { effectiveStatus, isoWithOffset } from '../payment-links/service';
import {
  LINK_EXPIRED,
  LINK_PAID,
  LINK_PENDING,
  PaymentClaimModel,
  PaymentLinkModel,
  STATUS_LABELS,
  type LinkAddress,
  type PaymentClaim,
  type PaymentLink,
} from '../payment-links/model';
import { emitLinkEvent } from '../webhooks/service';
import { WebhookEventModel } from '../webhooks/model';
import { documentKind, maskDocument, normalizeDocument } from './documents';
import { payerDenialMessage } from './payer-messages';

/**
 * The one-charge claims of links (src/db/claims.ts). A 'charging' claim is held while its acquirer
 * call may still be running (callMayStillBeRunningMs): past that its pay died, and another pay, or
 * the sweep, may settle it. A 'paid' claim is never taken over: it is the paid-once guard.
 */
const payments = new Claims<PaymentClaim>(PaymentClaimModel, {
  startField: 'startedAt',
  leaseMs: (claim) => (claim.state === 'paid' ? null : callMayStillBeRunningMs()),
});
type HeldPayment = HeldClaim<PaymentClaim>;

/** After this many declined cards a link takes no more: a public pay route must not become a card-testing oracle. */
export const MAX_DECLINED_ATTEMPTS = 10;

const ACQUIRER_BRANDS: ReadonlySet<string> = new Set([
  'Visa',
  'Master',
  'Amex',
  'Elo',
  'Aura',
  'JCB',
  'Diners',
  'Discover',
  'Hipercard',
]);

async function findLink(guid: string): Promise<PaymentLink> {
  if (typeof guid !== 'string' || guid.length > 100) throw notFound('No payment link with this address.');
  const link = await PaymentLinkModel.findOne({ guid }).lean();
  if (!link) throw notFound('No payment link with this address.');
  return link;
}

function expiredDetail(link: PaymentLink): string {
  return `This payment link expired on ${isoWithOffset(link.expiresAt)} and can no longer be paid or changed.`;
}

export const ALREADY_PAID = 'This payment link is already paid.';
const inProgress = () => new ApiError(409, { detail: IN_PROGRESS }, { 'Retry-After': '5' });
export const IN_PROGRESS =
  'A payment of this link is already in progress; if it does not finish, try again in a minute.';

/** Payer and address steps: allowed only on a pending link that has not expired. */
function assertEditable(link: PaymentLink, now: Date): void {
  const status = effectiveStatus(link, now);
  if (status === LINK_PAID) throw conflict(ALREADY_PAID);
  if (status === LINK_EXPIRED) throw conflict(expiredDetail(link));
}

function receiptOf(link: PaymentLink) {
  if (!link.payment || !link.paymentDate) return null;
  return {
    paymentDate: isoWithOffset(link.paymentDate),
    amount: link.value,
    installments: link.payment.installments,
    cardBrand: link.payment.brand,
    cardLast4: link.payment.last4,
    // The short code the issuer gave; the 20-digit transaction id is there too, for where it fits.
    authorization: link.payment.authorizationCode ?? null,
    tid: link.payment.tid ?? null,
    merchantCompanyName: link.merchantCompanyName,
    description: link.description,
  };
}

/** What the page needs, and nothing more: the payer document is masked, the e-mail never shown. */
export function presentCheckout(link: PaymentLink, now = new Date()) {
  const status = effectiveStatus(link, now);
  const document = normalizeDocument(link.document);
  return {
    guid: link.guid,
    status,
    statusLabel: STATUS_LABELS[status],
    paid: status === LINK_PAID,
    expired: status === LINK_EXPIRED,
    amount: link.value,
    description: link.description,
    merchantCompanyName: link.merchantCompanyName,
    installments: link.installments,
    expiresAt: isoWithOffset(link.expiresAt),
    payerName: link.payerName,
    payerDocument: maskDocument(document),
    payerDocumentSaved: link.documentValid,
    address: link.address
      ? {
          cep: link.address.cep,
          street: link.address.street,
          number: link.address.number,
          complement: link.address.complement,
          neighborhood: link.address.neighborhood,
          city: link.address.city,
          state: link.address.state,
          reference: link.address.reference,
        }
      : null,
    publicKey: publicKeyPem(),
    encryption: 'RSAES-PKCS1-V1_5',
    receipt: receiptOf(link),
  };
}

export type CheckoutView = ReturnType<typeof presentCheckout>;

export async function loadCheckout(guid: string, now = new Date()): Promise<CheckoutView> {
  return presentCheckout(await findLink(guid), now);
}

/**
 * The payer and address steps write the link as FerretDB does every update: read, change, write
 * back whole. Run while a pay records the link paid, that write-back could undo the payment, so
 * they are refused (409) from the moment a pay claims the link.
 */
async function assertNoPayInProgress(link: PaymentLink): Promise<void> {
  if (await PaymentClaimModel.exists({ _id: link._id })) throw inProgress();
}

export async function savePayer(
  guid: string,
  input: { payerName: string; document: string },
  now = new Date(),
): Promise<CheckoutView> {
  const link = await findLink(guid);
  assertEditable(link, now);
  const document = normalizeDocument(input.document);
  if (!documentKind(document)) throw badRequest({ document: [INVALID_DOCUMENT] });
  await assertNoPayInProgress(link);
  await PaymentLinkModel.updateOne(
    { _id: link._id, status: LINK_PENDING },
    { $set: { payerName: input.payerName, document, documentValid: true } },
  );
  return presentCheckout({ ...link, payerName: input.payerName, document, documentValid: true }, now);
}

export const INVALID_DOCUMENT = 'Enter a valid CPF (11 digits) or CNPJ (14 characters) with correct check digits.';

export async function saveAddress(guid: string, address: LinkAddress, now = new Date()): Promise<CheckoutView> {
  const link = await findLink(guid);
  assertEditable(link, now);
  await assertNoPayInProgress(link);
  await PaymentLinkModel.updateOne({ _id: link._id, status: LINK_PENDING }, { $set: { address } });
  return presentCheckout({ ...link, address }, now);
}

interface SaleOutcome {
  approved: boolean;
  paymentId: string;
  tid?: string;
  authorizationCode?: string;
  returnCode: string;
  returnMessage: string;
}

/**
 * The charge got no answer. When nothing was charged, free the claim and answer 502 (the link
 * stays payable). When the acquirer may have charged (sent, then timeout, reset or 5xx), ask it by
 * our order id: no sale, conclusively -> free the claim, 502; a final sale -> settle the link by it.
 * Otherwise (no sale while the call may still be running, a sale not final yet, or the query
 * failed) the claim stays: a second pay cannot charge the card again, and the sweep settles it.
 */
async function reconcile(
  claim: HeldPayment,
  charge: Exclude<CardCharge, { outcome: 'answered' }>,
): Promise<SaleOutcome> {
  if (charge.outcome === 'not-charged') {
    await releaseClaim(claim);
    throw charge.error;
  }
  const { merchantOrderId, startedAt } = claim.document;
  let found;
  try {
    found = await findCharge(merchantOrderId, { at: startedAt, mayStillRun: charge.mayStillRun });
  } catch (queryError) {
    logger.warn(
      { linkId: claim.document._id, err: { message: (queryError as Error).message } },
      'pay outcome unknown and the acquirer query failed: claim kept',
    );
    throw charge.error;
  }
  if (!found.sale) {
    if (found.conclusive) await releaseClaim(claim);
    throw charge.error;
  }
  const status = chargeStatusOf(found.sale.status);
  if (status !== 'approved' && status !== 'denied') throw charge.error; // not final at the acquirer yet
  return { ...found.sale, approved: status === 'approved' };
}

export interface PayOutcome {
  approved: boolean;
  checkout: CheckoutView;
  /**
   * code and message are the acquirer's own (the merchant's webhook carries them); payerMessage is what the page shows.
   */
  denial: { code: string; message: string; payerMessage: string } | null;
}

/**
 * Claims the one charge of the link; 409 when another pay holds it or the link is paid. A dead
 * pay's claim is taken over under its acquirer keys, so the acquirer replays the sale it may have
 * made instead of charging twice.
 */
async function claimPayment(link: PaymentLink, now: Date): Promise<HeldPayment> {
  const outcome = await payments.claim(
    link._id,
    (takenOver) => ({
      attemptKey: takenOver?.attemptKey ?? crypto.randomUUID(),
      merchantOrderId: takenOver?.merchantOrderId ?? `PL${link._id}T${crypto.randomBytes(6).toString('hex')}`,
      state: 'charging',
    }),
    now,
  );
  if (outcome.claimed) return outcome.claim;
  if (outcome.held?.state === 'paid') throw conflict(ALREADY_PAID);
  throw inProgress();
}

/**
 * Releases exactly the holder's claim while it is still charging: a slow holder whose claim was
 * taken over must not free the new one, and a paid claim is never freed.
 */
async function releaseClaim(claim: HeldPayment): Promise<void> {
  await claim.release({ state: 'charging' });
}

function linkEventData(link: PaymentLink) {
  return {
    id: link._id,
    payment_link_guid: link.guid,
    status: effectiveStatus(link),
    status_label: STATUS_LABELS[effectiveStatus(link)],
    value: link.value,
    number_of_installments: link.installments,
    payment_date: link.paymentDate ? isoWithOffset(link.paymentDate) : null,
  };
}

/**
 * Stores an event when the link has a webhook (emitLinkEvent queues its delivery). A failure is
 * logged, never undoes the payment; false tells the caller the event is still owed.
 */
async function notify(link: PaymentLink, type: string, extra: Record<string, unknown>): Promise<boolean> {
  if (!link.webhookUrl) return true;
  try {
    await emitLinkEvent({
      merchantId: link.merchantId,
      linkId: link._id,
      url: link.webhookUrl,
      type,
      data: { ...linkEventData(link), ...extra },
    });
    return true;
  } catch (err) {
    logger.error({ err, linkId: link._id, type }, 'could not store a link webhook event');
    return false;
  }
}

function paidEventExtra(payment: NonNullable<PaymentLink['payment']>) {
  return {
    card: { brand: payment.brand, last4: payment.last4 },
    acquirer: { payment_id: payment.acquirerPaymentId, tid: payment.tid ?? null, return_code: payment.returnCode },
  };
}

/**
 * Records the paid link, owes its event, then records the payment on the claim in one write: state
 * 'paid', what the link records (so the sweep can write the link again if it loses it) and the
 * outbox mark (notifiedAt, null while the event is still owed). Until that write the claim stays
 * 'charging', which is safe at every step: the claim still blocks other pays and the payer and
 * address steps, and should this process die or a write fail, the sweep asks the acquirer by the
 * claim's order id and records the link again through here. A claim that was stale (taken over,
 * or settled by the sweep) may be recorded by two at once, so then an event already stored is
 * looked for first; a fresh pay skips that read.
 */
async function recordPaid(
  link: PaymentLink,
  claim: HeldPayment,
  payment: NonNullable<PaymentLink['payment']>,
  paymentDate: Date,
  bySweep = false,
): Promise<PaymentLink> {
  await PaymentLinkModel.updateOne({ _id: link._id }, { $set: { status: LINK_PAID, paymentDate, payment } });
  const paid: PaymentLink = { ...link, status: LINK_PAID, paymentDate, payment };
  const wasStale = bySweep || claim.takenOver !== null;
  const alreadyStored =
    link.webhookUrl && wasStale
      ? await WebhookEventModel.exists({ linkId: link._id, type: 'payment_link.paid' })
      : null;
  const notified = Boolean(alreadyStored) || (await notify(paid, 'payment_link.paid', paidEventExtra(payment)));
  // A slow holder whose claim was taken over writes nothing here: its taker, asking the acquirer
  // under the same keys, records the same sale.
  await claim.update({
    $set: { state: 'paid', payment, paymentDate, notifiedAt: notified ? new Date() : null, eventOwed: !notified },
  });
  return paid;
}

/**
 * The pay step. Order matters: the card is decrypted and checked before the claim (bad input
 * never blocks the link), and the claim is taken before the acquirer is called.
 */
export async function payLink(guid: string, encryptedCard: string, now = new Date()): Promise<PayOutcome> {
  const link = await findLink(guid);
  const status = effectiveStatus(link, now);
  if (status === LINK_PAID) throw conflict(ALREADY_PAID);
  if (status === LINK_EXPIRED) throw conflict(expiredDetail(link));
  const document = normalizeDocument(link.document);
  const kind = documentKind(document);
  const missing: Record<string, string[]> = {};
  if (!link.payerName) missing.payer_name = ['Complete the payer step first: the payer name is required.'];
  if (!kind) missing.document = ['Complete the payer step first: a valid CPF or CNPJ is required.'];
  if (Object.keys(missing).length) throw badRequest(missing);
  if ((link.declinedAttempts ?? 0) >= MAX_DECLINED_ATTEMPTS) {
    throw conflict(
      `This payment link refused ${MAX_DECLINED_ATTEMPTS} declined cards and takes no more; ask the merchant ` +
        `for a new link.`,
    );
  }
  let card;
  try {
    card = decryptCard(encryptedCard, now);
  } catch (error) {
    if (error instanceof CardError) throw badRequest({ [error.field]: [error.message] });
    throw error;
  }
  const brand = cardBrand(card.number);
  if (!ACQUIRER_BRANDS.has(brand)) throw badRequest({ number: ['This card brand is not accepted.'] });
  const summary = summarizeCard(card);

  const claim = await claimPayment(link, now);
  let charge: CardCharge;
  try {
    charge = await chargeCard({
      idempotencyKey: claim.document.attemptKey,
      merchantOrderId: claim.document.merchantOrderId,
      amountCents: link.value,
      installments: link.installments,
      capture: true,
      customer: { name: link.payerName, identity: document, identityType: kind! },
      card: {
        number: card.number,
        holder: card.holder,
        expMonth: card.expMonth,
        expYear: card.expYear,
        cvv: card.cvv,
        brand: brand as AcquirerCardBrand,
      },
    });
  } catch (error) {
    await releaseClaim(claim); // a bug, not an acquirer failure: the link stays payable, as for a refusal
    throw error;
  }
  const result = charge.outcome === 'answered' ? charge.answer : await reconcile(claim, charge);

  if (!result.approved) {
    await PaymentLinkModel.updateOne({ _id: link._id }, { $inc: { declinedAttempts: 1 } });
    await releaseClaim(claim);
    const denial = {
      code: result.returnCode,
      message: result.returnMessage || 'The card was not approved.',
      payerMessage: payerDenialMessage(result.returnCode),
    };
    await notify(link, 'payment_link.payment_denied', {
      denial: { return_code: denial.code, return_message: denial.message },
      card: { brand: summary.brand, last4: summary.last4 },
    });
    return { approved: false, checkout: presentCheckout(link, now), denial };
  }

  const paymentDate = new Date();
  const payment = {
    acquirerPaymentId: result.paymentId,
    tid: result.tid ?? null,
    authorizationCode: result.authorizationCode ?? null,
    returnCode: result.returnCode,
    returnMessage: result.returnMessage,
    brand: summary.brand,
    bin: summary.bin,
    last4: summary.last4,
    installments: link.installments,
  };
  const paid = await recordPaid(link, claim, payment, paymentDate);
  return { approved: true, checkout: presentCheckout(paid, paymentDate), denial: null };
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
    if (link.status !== LINK_PAID && claim.payment) {
      await PaymentLinkModel.updateOne(
        { _id: link._id },
        { $set: { status: LINK_PAID, paymentDate: claim.paymentDate, payment: claim.payment } },
      );
      paid = { ...link, status: LINK_PAID, paymentDate: claim.paymentDate ?? link.paymentDate, payment: claim.payment };
    }
    const alreadyStored = await WebhookEventModel.exists({ linkId: link._id, type: 'payment_link.paid' });
    if (alreadyStored || !paid.payment || (await notify(paid, 'payment_link.paid', paidEventExtra(paid.payment)))) {
      await payments.asRead(claim).update({ $set: { notifiedAt: new Date(), eventOwed: false } });
      return true;
    }
    return false;
  }
  const found = await findCharge(claim.merchantOrderId, { at: claim.startedAt, mayStillRun: true }, now);
  const held = payments.asRead(claim);
  if (!found.sale) {
    if (!found.conclusive) return false;
    await releaseClaim(held);
    return true;
  }
  const { sale } = found;
  const status = chargeStatusOf(sale.status);
  if (status === 'approved') {
    const payment = {
      acquirerPaymentId: sale.paymentId,
      tid: sale.tid ?? null,
      authorizationCode: sale.authorizationCode ?? null,
      returnCode: sale.returnCode,
      returnMessage: sale.returnMessage,
      brand: sale.card?.brand ?? '',
      bin: sale.card?.maskedNumber.slice(0, 6) ?? '',
      last4: sale.card?.maskedNumber.slice(-4) ?? '',
      installments: link.installments,
    };
    await recordPaid(link, held, payment, new Date(), true);
    return true;
  }
  if (status === 'denied' || status === 'reversed') {
    // This sale will never be a payment.
    await releaseClaim(held);
    return true;
  }
  return false;
}
