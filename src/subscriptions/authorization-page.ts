/**
 * What the payer's authorisation page of a Pix Automático mandate shows (src/checkout serves the page
 * and this read): the merchant's name, the plan, the amount and its period, the first due date, the QR
 * code while it waits, and the mandate's state as the acquirer confirmed it. Public, found only by the
 * mandate's unguessable page token: no merchant or acquirer id, the payer's document masked.
 */
import { notFound } from '../platform/errors';
import { maskDocument } from '../platform/brazilian-documents';
import { getMerchant } from '../merchants/service';
import { applyMandateChanges } from './mandate';
import { now } from './clock';
import { SubscriptionModel, type MandateStatus, type Subscription } from './model';
import type { MandateCheckoutAnswer } from './schemas';

/** A page token is a random UUID (mandate.ts); anything else is not looked up. */
const PAGE_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const PAGE_STATES: Record<MandateStatus, MandateCheckoutAnswer['status']> = {
  CREATED: 'waiting',
  APPROVED: 'approved',
  REJECTED: 'rejected',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
};

/** The subscription whose mandate's page this is; an unknown or malformed token is 404. */
export async function findByPageToken(token: unknown): Promise<Subscription> {
  const sub =
    typeof token === 'string' && PAGE_TOKEN.test(token)
      ? await SubscriptionModel.findOne({ mandatePageToken: token }).lean<Subscription>()
      : null;
  if (!sub?.mandate || sub.mandate.pageToken !== token) throw notFound('No authorisation with this address.');
  return sub;
}

/** Whether the page exists (its HTML is served 200 or 404 by this). */
export async function mandatePageExists(token: unknown): Promise<boolean> {
  try {
    await findByPageToken(token);
    return true;
  } catch {
    return false;
  }
}

export async function mandateCheckout(token: unknown): Promise<MandateCheckoutAnswer> {
  const sub = await applyMandateChanges(await findByPageToken(token));
  const mandate = sub.mandate!;
  const merchant = await getMerchant(sub.merchantId);
  const expiresAt = mandate.expiresAt ? new Date(mandate.expiresAt) : null;
  const msLeft = expiresAt ? expiresAt.getTime() - now().getTime() : null;
  // A QR code past its expiry cannot be used, whether or not the acquirer's notice of it has come.
  let status = PAGE_STATES[mandate.status];
  if (status === 'waiting' && msLeft !== null && msLeft <= 0) status = 'expired';
  const waiting = status === 'waiting';
  return {
    status,
    merchantName: merchant?.companyName ?? '',
    // As the bank app shows it (mandate.ts sent the same plan).
    plan: sub.description || `Subscription ${sub._id}`,
    amountType: mandate.amountType,
    value: sub.value,
    maximumValue: mandate.amountType === 'variable' ? (mandate.maximumValue ?? null) : null,
    billingCycle: sub.billingCycle as MandateCheckoutAnswer['billingCycle'],
    firstDueDate: sub.firstDueDate,
    journey: mandate.journey,
    payNow: mandate.journey === 3 ? sub.value : null,
    payerName: sub.customer.name,
    payerDocument: maskDocument(sub.customer.identity ?? ''),
    qrCodeImage: waiting ? mandate.qrCodeImage : null,
    qrCodeText: waiting ? mandate.qrCodeText : null,
    expiresAt: expiresAt ? expiresAt.toISOString() : null,
    secondsLeft: waiting && msLeft !== null ? Math.ceil(msLeft / 1000) : null,
    cancelledBy: mandate.status === 'CANCELLED' ? (mandate.cancelledBy ?? 'payer') : null,
  };
}
