/**
 * Payment link creation exactly per the spec's tables, and the merchant's read of a link.
 * Validation lives here (not in celebrate) because the webhook URL check resolves DNS: the whole
 * field map, sync and async rules together, comes back in one 400.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { MerchantModel } from '../merchants/model';
import { nextId } from '../db/ids';
import { insertDocument } from '../db/inserts';
import { freeKey, recordOfUse, requestHash, useIdempotencyKey, type KeyBook } from '../payments/idempotency';
import { ApiError, badRequest, notFound, type FieldErrors } from '../platform/errors';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { checkWebhookUrl, configuredUrlRules, type Resolver } from '../platform/url-safety';
import type { InstallmentPolicy } from '../platform/installments';
import { paymentLinkCreate, type PaymentLinkAnswer } from './schemas';
import {
  EXPIRY_HOURS,
  LINK_EXPIRED,
  LINK_PENDING,
  LinkIdempotencyModel,
  PaymentLinkModel,
  STATUS_LABELS,
  type LinkIdempotencyRecord,
  type LinkInstallmentPolicy,
  type LinkPaymentMethod,
  type PaymentLink,
} from './model';

export interface CreateLinkInput {
  value: number;
  description: string;
  payerName: string;
  document: string;
  email: string;
  mobile: string;
  installments: number;
  installmentPolicy: LinkInstallmentPolicy | null;
  paymentMethods: LinkPaymentMethod[];
  pixExpiresIn: number;
  linkExpPeriod: number;
  webhookUrl: string;
}

export const DEFAULT_PIX_EXPIRES_IN = 1_800;

/** How the payer may pay this link; links made before PIX take cards only. */
export function linkPaymentMethods(link: Pick<PaymentLink, 'paymentMethods'>): LinkPaymentMethod[] {
  return link.paymentMethods?.length ? link.paymentMethods : ['card'];
}

/** The link's offer: at most its installments, its policy, or all interest-free with no minimum (links before). */
export function linkInstallmentPolicy(
  link: Pick<PaymentLink, 'installments' | 'installmentPolicy'>,
): InstallmentPolicy {
  return {
    maxInstallments: link.installments,
    freeInstallments: link.installmentPolicy?.freeInstallments ?? link.installments,
    interestRateMonthlyBp: link.installmentPolicy?.interestRateMonthlyBp ?? 0,
    minInstallmentValue: link.installmentPolicy?.minInstallmentValue ?? 0,
  };
}

const WEBHOOK_ALIASES = ['webhookUrl', 'webhook_url', 'callbackUrl', 'callback_url'] as const;

/** Folds the legacy aliases: payer_name wins over merchant_name; webhookUrl over its three aliases. */
export function foldAliases(body: Record<string, unknown>): Record<string, unknown> {
  const folded: Record<string, unknown> = { ...body };
  if (folded.payer_name === undefined && body.merchant_name !== undefined) folded.payer_name = body.merchant_name;
  const webhook = WEBHOOK_ALIASES.map((name) => body[name]).find((v) => v !== undefined);
  for (const name of WEBHOOK_ALIASES) delete folded[name];
  if (webhook !== undefined) folded.webhookUrl = webhook;
  delete folded.merchant_name;
  return folded;
}

export interface ValidateOptions {
  resolve?: Resolver;
}

/** Validates a create body; throws 400 with every bad field at once. */
export async function validateCreateLink(body: unknown, options: ValidateOptions = {}): Promise<CreateLinkInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest({
      non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(body) ? 'list' : typeof body}.`],
    });
  }
  const { value, error } = paymentLinkCreate.validate(foldAliases(body as Record<string, unknown>), {
    abortEarly: false,
    convert: true,
  });
  const fields: FieldErrors = {};
  for (const detail of error?.details ?? []) {
    const key = String(detail.path[0] ?? 'non_field_errors');
    if (!(fields[key] ??= []).includes(detail.message)) fields[key].push(detail.message);
  }
  const webhookUrl = typeof value.webhookUrl === 'string' ? value.webhookUrl.trim() : '';
  if (webhookUrl && !fields.webhookUrl) {
    const verdict = await checkWebhookUrl(webhookUrl, configuredUrlRules(options.resolve));
    if (!verdict.safe) fields.webhookUrl = [verdict.message];
  }
  // Only numbers reach the comparisons: a field refused above may hold anything (a 50 000-deep array that
  // `>` would turn into a string, overflowing the stack).
  const numberOr = (field: unknown, fallback: number): number => (typeof field === 'number' ? field : fallback);
  const rate = numberOr(value.interest_rate_monthly, 0);
  const most = numberOr(value.number_of_installments, 1);
  const freeInstallments = numberOr(value.free_installments, rate > 0 ? 1 : most);
  if (!fields.free_installments && !fields.number_of_installments && freeInstallments > most) {
    fields.free_installments = ['Ensure this value is less than or equal to number_of_installments.'];
  }
  if (Object.keys(fields).length) throw badRequest(fields);
  const minInstallmentValue: number = value.min_installment_value ?? 0;
  const allFree = freeInstallments >= value.number_of_installments || rate === 0;
  return {
    value: value.value,
    description: value.description ?? '',
    payerName: value.payer_name ?? '',
    document: value.document ?? '',
    email: value.email ?? '',
    mobile: value.mobile ?? '',
    installments: value.number_of_installments,
    // Today's links (all interest-free, no minimum) store no policy.
    installmentPolicy:
      allFree && minInstallmentValue === 0
        ? null
        : {
            freeInstallments: Math.min(freeInstallments, value.number_of_installments),
            interestRateMonthlyBp: rate,
            minInstallmentValue,
          },
    paymentMethods: value.payment_methods,
    pixExpiresIn: value.pix_expires_in,
    linkExpPeriod: value.link_exp_period,
    webhookUrl,
  };
}

/** ISO 8601 with an explicit UTC offset, e.g. 2026-11-25T22:38:46.123+00:00. */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}

export function checkoutUrlOf(guid: string): string {
  return `${getConfig().publicBaseUrl}/checkout/${guid}`;
}

/** Paid is stored; expired is derived from the clock (no job has to run for a link to expire). */
export function effectiveLinkStatus(link: Pick<PaymentLink, 'status' | 'expiresAt'>, now = new Date()): number {
  if (link.status === LINK_PENDING && link.expiresAt.getTime() <= now.getTime()) return LINK_EXPIRED;
  return link.status;
}

/** The create response (spec table) and the merchant's read of a link: no e-mail, per the spec. */
export function presentLink(link: PaymentLink, now = new Date()): PaymentLinkAnswer {
  const status = effectiveLinkStatus(link, now);
  return {
    id: link._id,
    status,
    status_label: STATUS_LABELS[status],
    merchant_id: link.merchantId,
    merchant_company_name: link.merchantCompanyName,
    value: link.value,
    description: link.description,
    payer_name: link.payerName,
    merchant_name: link.payerName,
    document: link.document,
    mobile: link.mobile,
    link_exp_period: link.linkExpPeriod,
    payment_methods: linkPaymentMethods(link),
    pix_expires_in: link.pixExpiresIn ?? DEFAULT_PIX_EXPIRES_IN,
    number_of_installments: link.installments,
    ...presentInstallmentPolicy(link),
    payment: link.payment ? presentLinkInstallments(link.payment, link.value) : null,
    payment_link_guid: link.guid,
    payment_link_url: checkoutUrlOf(link.guid),
    payment_date: link.paymentDate ? isoWithOffset(link.paymentDate) : null,
    webhookUrl: link.webhookUrl,
    created_at: isoWithOffset(link.createdAt),
    expires_at: isoWithOffset(link.expiresAt),
  };
}

function presentInstallmentPolicy(link: PaymentLink) {
  const policy = linkInstallmentPolicy(link);
  return {
    free_installments: policy.freeInstallments,
    interest_rate_monthly: policy.interestRateMonthlyBp,
    min_installment_value: policy.minInstallmentValue,
  };
}

/** What the payer chose; a link paid before the choice existed was charged its value in its installments. */
export function presentLinkInstallments(payment: NonNullable<PaymentLink['payment']>, value: number) {
  return {
    installments: payment.installments,
    installment_value: payment.installmentValue ?? Math.floor(value / payment.installments),
    total: payment.total ?? value,
    interest_free: payment.interestFree ?? true,
  };
}

export type PresentedLink = ReturnType<typeof presentLink>;

async function insertLink(merchantId: number, input: CreateLinkInput, now: Date): Promise<PaymentLink> {
  const merchant = await MerchantModel.findById(merchantId).lean();
  if (!merchant) throw notFound('No such merchant.');
  const normalized = normalizeDocument(input.document);
  return insertDocument(PaymentLinkModel, {
    _id: await nextId('payment_link'),
    guid: crypto.randomUUID(),
    merchantId,
    merchantCompanyName: merchant.companyName,
    value: input.value,
    description: input.description,
    payerName: input.payerName,
    document: input.document,
    documentValid: Boolean(normalized && documentKind(normalized)),
    email: input.email,
    mobile: input.mobile,
    installments: input.installments,
    installmentPolicy: input.installmentPolicy,
    paymentMethods: input.paymentMethods,
    pixExpiresIn: input.pixExpiresIn,
    linkExpPeriod: input.linkExpPeriod,
    webhookUrl: input.webhookUrl,
    expiresAt: new Date(now.getTime() + EXPIRY_HOURS[input.linkExpPeriod] * 3600 * 1000),
    createdAt: now,
    updatedAt: now,
  });
}

export interface CreateResult {
  link: PresentedLink;
  /** True when an Idempotency-Key replayed the first answer. */
  replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Link creation's Idempotency-Key records: the answer is the link, read again. */
const linkKeys: KeyBook<LinkIdempotencyRecord, PaymentLink> = {
  model: LinkIdempotencyModel,
  newRecord: (_createdAt, requestHash) => ({ requestHash, state: 'in_progress' }),
  hashOf: (record) => record.requestHash,
  answerOf: async (record) => {
    if (record.linkId === null) return null;
    const link = await PaymentLinkModel.findById(record.linkId).lean();
    if (!link) throw notFound('The payment link of this Idempotency-Key no longer exists.');
    return link;
  },
};

const stillProcessing = () =>
  new ApiError(
    409,
    { detail: 'A request with this Idempotency-Key is still being processed; retry later.' },
    { 'Retry-After': '1' },
  );

/**
 * Creates a link. With an Idempotency-Key (per merchant, 24 h): the same key and body replays the
 * first answer without a second link; the same key with another body is 422; the same key while
 * the first request is still running is 409. The key is claimed by an insert (unique _id), so two
 * concurrent requests with one key create one link.
 */
export async function createPaymentLink(
  merchantId: number,
  body: unknown,
  idempotencyKey?: string,
  options: ValidateOptions & { now?: Date } = {},
): Promise<CreateResult> {
  const now = options.now ?? new Date();
  if (idempotencyKey === undefined) {
    const input = await validateCreateLink(body, options);
    return { link: presentLink(await insertLink(merchantId, input, now), now), replayed: false };
  }
  if (!IDEMPOTENCY_KEY.test(idempotencyKey))
    throw badRequest({ 'Idempotency-Key': ['Use 1 to 255 visible ASCII characters.'] });
  const recordId = `${merchantId}:${idempotencyKey}`;
  // Validated first, and the validated fields hashed: the raw body may nest arbitrarily deep
  // (ignored unknown fields included), and hashing it recursively overflowed the stack (a 500).
  const input = await validateCreateLink(body, options);
  const hash = requestHash(input);
  const key = await useIdempotencyKey(linkKeys, recordId, hash, now);
  if (key.use === 'other-request')
    throw new ApiError(422, { detail: 'This Idempotency-Key was already used with a different request body.' });
  if (key.use === 'busy') throw stillProcessing();
  if (key.use === 'replay') return { link: presentLink(key.answer, now), replayed: true };
  try {
    const link = await insertLink(merchantId, input, now);
    await LinkIdempotencyModel.updateOne(recordOfUse(recordId, key.createdAt), {
      $set: { state: 'done', linkId: link._id },
    });
    return { link: presentLink(link, now), replayed: false };
  } catch (error) {
    // Nothing was created: free the key so the corrected request can use it.
    await freeKey(LinkIdempotencyModel, recordId, key.createdAt).catch(() => undefined);
    throw error;
  }
}

export async function getMerchantLink(merchantId: number, linkId: number): Promise<PaymentLink> {
  const link = await PaymentLinkModel.findOne({ _id: linkId, merchantId }).lean();
  if (!link) throw notFound('No such payment link.');
  return link;
}
