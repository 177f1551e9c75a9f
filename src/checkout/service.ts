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
 * The claim is in pay-claims.ts; recording a paid link and the sweep that finishes dead pays in settlement.ts.
 */
import { type AcquirerCardBrand } from '../acquirer/client';
import { chargeCard, acquirerChargeOutcomeOf, findAcquirerCharge, type CardCharge } from '../payments/card-charge';
import { cardBrand, CardError, decryptCard, publicKeyPem, summarizeCard } from '../cards';
import { readOne } from '../db/reads';
import { badRequest, conflict, notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import {
  effectiveLinkStatus,
  isoWithOffset,
  linkInstallmentPolicy,
  linkPaymentMethods,
} from '../payment-links/service';
import {
  installmentLabel,
  installmentOption,
  installmentOptions,
  type InstallmentOption,
} from '../platform/installments';
import {
  LINK_EXPIRED,
  LINK_PAID,
  LINK_PENDING,
  PaymentClaimModel,
  PaymentLinkModel,
  STATUS_LABELS,
  type LinkAddress,
  type PaymentLink,
} from '../payment-links/model';
import { documentKind, maskDocument, normalizeDocument } from '../platform/brazilian-documents';
import { payerDenialMessage } from './payer-messages';
import { ALREADY_PAID, claimPayment, inProgress, releaseClaim, type HeldPayment } from './pay-claims';
import type { CheckoutInstallmentsAnswer, CheckoutLinkAnswer, CheckoutPayAnswer } from './schemas';
import { linkPaymentOf, notify, recordPaid } from './settlement';

export { ALREADY_PAID, IN_PROGRESS } from './pay-claims';
export { paymentsNeedingAttention, settleStalePayments } from './settlement';

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

export async function findLink(guid: string): Promise<PaymentLink> {
  if (typeof guid !== 'string' || guid.length > 100) throw notFound('No payment link with this address.');
  const link = await readOne<PaymentLink>(PaymentLinkModel, { guid });
  if (!link) throw notFound('No payment link with this address.');
  return link;
}

function expiredDetail(link: PaymentLink): string {
  return `This payment link expired on ${isoWithOffset(link.expiresAt)} and can no longer be paid or changed.`;
}

/** A pay (card or PIX): only of a pending link that has not expired. */
export function assertPayable(link: PaymentLink, now: Date): void {
  const status = effectiveLinkStatus(link, now);
  if (status === LINK_PAID) throw conflict(ALREADY_PAID);
  if (status === LINK_EXPIRED) throw conflict(expiredDetail(link));
}

/** Payer and address steps: allowed only on a pending link that has not expired. */
function assertEditable(link: PaymentLink, now: Date): void {
  const status = effectiveLinkStatus(link, now);
  if (status === LINK_PAID) throw conflict(ALREADY_PAID);
  if (status === LINK_EXPIRED) throw conflict(expiredDetail(link));
}

function receiptOf(link: PaymentLink) {
  if (!link.payment || !link.paymentDate) return null;
  return {
    paymentDate: isoWithOffset(link.paymentDate),
    amount: link.value,
    method: link.payment.method ?? 'card',
    installments: link.payment.installments,
    installmentValue: link.payment.installmentValue ?? Math.floor(link.value / link.payment.installments),
    total: link.payment.total ?? link.value,
    interestFree: link.payment.interestFree ?? true,
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
export function presentCheckout(link: PaymentLink, now = new Date()): CheckoutLinkAnswer {
  const status = effectiveLinkStatus(link, now);
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
    paymentMethods: linkPaymentMethods(link),
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

export async function loadCheckout(guid: string, now = new Date()): Promise<CheckoutLinkAnswer> {
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
): Promise<CheckoutLinkAnswer> {
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

export async function saveAddress(guid: string, address: LinkAddress, now = new Date()): Promise<CheckoutLinkAnswer> {
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
    found = await findAcquirerCharge(merchantOrderId, { at: startedAt, mayStillRun: charge.mayStillRun });
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
  const status = acquirerChargeOutcomeOf(found.sale.status);
  if (status !== 'approved' && status !== 'denied') throw charge.error; // not final at the acquirer yet
  return { ...found.sale, approved: status === 'approved' };
}

/**
 * The pay step. Order matters: the card is decrypted and checked before the claim (bad input
 * never blocks the link), and the claim is taken before the acquirer is called.
 */
/** The options the payer may choose on this link (the public installments route, and what the pay step accepts). */
export async function linkInstallmentOptions(guid: string): Promise<CheckoutInstallmentsAnswer> {
  const link = await findLink(guid);
  return {
    amount: link.value,
    max_installments: link.installments,
    options: installmentOptions(link.value, linkInstallmentPolicy(link)).map((option) => ({
      installments: option.installments,
      installment_value: option.installmentValue,
      total: option.total,
      interest_free: option.interestFree,
      label: installmentLabel(option),
    })),
  };
}

/**
 * The option a pay step charges: the one named, which must be among the link's options (400 otherwise),
 * or, when none is named, the link's own number as before the payer could choose.
 */
function chosenOption(link: PaymentLink, chosen: number | undefined): InstallmentOption {
  const policy = linkInstallmentPolicy(link);
  if (chosen === undefined) return installmentOption(link.value, link.installments, policy);
  const options = installmentOptions(link.value, policy);
  const option = options.find((candidate) => candidate.installments === chosen);
  if (!option) {
    const most = options[options.length - 1].installments;
    throw badRequest({
      installments: [most === 1 ? 'This link is paid in 1 installment.' : `Choose from 1 to ${most} installments.`],
    });
  }
  return option;
}

export async function payLink(
  guid: string,
  encryptedCard: string,
  chosenInstallments?: number,
  now = new Date(),
): Promise<CheckoutPayAnswer> {
  const link = await findLink(guid);
  if (!linkPaymentMethods(link).includes('card')) {
    throw badRequest({ payment_method: ['This payment link is paid by PIX only.'] });
  }
  assertPayable(link, now);
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
  const requested = chosenOption(link, chosenInstallments);

  const claim = await claimPayment(link, requested, now);
  const option = claim.document.option ?? requested;
  let charge: CardCharge;
  try {
    charge = await chargeCard({
      idempotencyKey: claim.document.attemptKey,
      merchantOrderId: claim.document.merchantOrderId,
      amountCents: option.total,
      installments: option.installments,
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
  const payment = linkPaymentOf(result, summary, option);
  const paid = await recordPaid(link, claim, payment, paymentDate);
  return { approved: true, checkout: presentCheckout(paid, paymentDate), denial: null };
}
