/**
 * Subscription rules: create (the card becomes an acquirer card token; one due today gets its first
 * charge at once), read, cancel, the charge list as the spec's table describes it (refunds of a
 * charge: charge-refunds.ts and src/refunds).
 * Knows nothing of Express: routes, jobs and tests call it.
 */
import { checkedAfterLookup } from '../db/filters';
import mongoose from 'mongoose';
import { nextId } from '../db/ids';
import { insertDocument } from '../db/inserts';
import { insertOnce } from '../db/claims';
import { badRequest, conflict, notFound } from '../platform/errors';
import { CardError, cardBrand, decryptCard, summarizeCard, type ClearCard } from '../cards';
import { checkBody } from '../http/schema';
import { AcquirerRejectedError, tokenizeCard } from '../acquirer/client';
import { logger } from '../platform/logger';
import { now, today } from './clock';
import { pixSendWindowState } from './pix-retry-policy';
import { startFirstCycleIfDue } from './scheduling';
import { cycleDueDate, SUBSCRIPTION_SEQUENCE } from './calendar';
import { applyCancellation, recordCancellation } from './cancellation';
import { applyMandateChanges, cancelMandateAtAcquirer, confirmMandate, openMandate, PIX_INTERVALS } from './mandate';
import { chargeView, subscriptionView } from './views';
import { subscriptionEvent } from './events';
import { oweEvents, owedFields, owedSet, recordOwed } from '../events/outbox';

export { chargeView, subscriptionView };
import {
  cycleValueUpdate,
  subscriptionCreate,
  type ChargeAnswer,
  type CycleValueInput,
  type SubscriptionAnswer,
  type SubscriptionCreateInput,
} from './schemas';
import {
  ChargeStatus,
  SubscriptionCancellationModel,
  SubscriptionChargeModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCharge,
} from './model';

export interface CreateSubscriptionHooks {
  /** Tests only: runs once the subscription is stored, before its first charge (a throw stands for a crash). */
  afterInsert?: (sub: Subscription) => Promise<void>;
}

/**
 * The create body checked whole: the schema's rules, then the due dates against today and the card's
 * decryption on the keys the schema accepted, so one 400 names every bad field. The acquirer is not
 * asked about the card (a tokenization) until the rest of the body is good.
 */
function checkCreate(body: unknown): { input: SubscriptionCreateInput; card: ClearCard | null } {
  const { value, fields } = checkBody(subscriptionCreate.required(), body);
  if (value.paymentMethod === 'pix_automatico') checkPixAutomatico(value, fields);
  if (value.firstDueDate !== undefined && value.firstDueDate < today())
    fields.firstDueDate = ['The first due date cannot be in the past.'];
  if (value.endDate && value.firstDueDate !== undefined && value.endDate < value.firstDueDate)
    fields.endDate = ['The end date cannot be before the first due date.'];
  let card: ClearCard | undefined;
  if (value.encryptedCard !== undefined) {
    try {
      card = decryptCard(value.encryptedCard, now());
    } catch (error) {
      if (!(error instanceof CardError)) throw error;
      // An unreadable card is this body's encryptedCard; a readable one's bad field is named (docs/cards.md).
      fields[error.field === 'encrypted_card' ? 'encryptedCard' : error.field] = [error.message];
    }
  }
  if (Object.keys(fields).length || (!card && value.paymentMethod !== 'pix_automatico')) throw badRequest(fields);
  return { input: value as SubscriptionCreateInput, card: card ?? null };
}

/** What a Pix Automático body needs beyond the schema: a Central Bank interval, the payer, coherent amounts. */
function checkPixAutomatico(value: Partial<SubscriptionCreateInput>, fields: Record<string, string[]>): void {
  const add = (key: string, message: string) => (fields[key] ??= []).push(message);
  if (value.billingCycle && !PIX_INTERVALS[value.billingCycle])
    add('billingCycle', `Pix Automático has no such interval: one of ${Object.keys(PIX_INTERVALS).join(', ')}.`);
  if (!Object.keys(fields).some((key) => key.startsWith('customer'))) {
    if (!value.customer?.name) add('customer.name', "The payer's name is required with pix_automatico.");
    if (!value.customer?.identity) add('customer.identity', "The payer's CPF or CNPJ is required with pix_automatico.");
  }
  if (value.description && value.description.length > 35)
    add('description', 'At most 35 characters with pix_automatico (the plan the payer sees in the bank app).');
  const pix = value.pixAutomatico;
  if (!pix) return;
  const { maximumValue, minimumValue } = pix;
  if (minimumValue !== undefined && maximumValue === undefined)
    add('pixAutomatico.minimumValue', 'Only with maximumValue (variable amounts).');
  if (minimumValue !== undefined && maximumValue !== undefined && minimumValue > maximumValue)
    add('pixAutomatico.minimumValue', 'Cannot be above maximumValue.');
  if (value.value !== undefined && maximumValue !== undefined && value.value > maximumValue)
    add('value', 'Cannot be above pixAutomatico.maximumValue.');
  if (value.value !== undefined && minimumValue !== undefined && value.value < minimumValue)
    add('value', 'Cannot be below pixAutomatico.minimumValue.');
}

/**
 * A subscription paid by Pix Automático: the recurrence is made at the acquirer first (its QR code
 * is the answer's mandate, CREATED), then the subscription is stored. No charge is sent until the
 * payer approves; charges on the Central Bank's calendar are not sent by the card scheduler.
 * Should the process die between the two, the acquirer's recurrence is never shown to a payer and
 * expires unapproved.
 */
async function createPixAutomaticoSubscription(merchantId: number, input: SubscriptionCreateInput) {
  const id = await nextId(SUBSCRIPTION_SEQUENCE);
  const pix = input.pixAutomatico!;
  const customer = { name: input.customer!.name!.trim(), identity: input.customer!.identity! };
  let mandate;
  try {
    mandate = await openMandate({
      subscriptionId: id,
      journey: pix.journey as 2 | 3,
      valueCents: input.value,
      billingCycle: input.billingCycle,
      firstDueDate: input.firstDueDate,
      endDate: input.endDate ?? null,
      retry: input.retry,
      maximumValue: pix.maximumValue ?? null,
      minimumValue: pix.minimumValue ?? null,
      customer,
      plan: input.description || `Subscription ${id}`,
    });
  } catch (error) {
    if (error instanceof AcquirerRejectedError && (error.httpStatus === 400 || error.httpStatus === 422)) {
      throw badRequest({
        paymentMethod: [`The acquirer refused the recurrence${error.errors[0] ? `: ${error.errors[0].Message}` : ''}.`],
      });
    }
    throw error;
  }
  return storeSubscription(id, merchantId, input, {
    paymentMethod: 'pix_automatico' as const,
    mandate,
    mandateRecurrenceId: mandate.recurrenceId,
    mandatePageToken: mandate.pageToken,
    customer,
  });
}

/**
 * Inserts a new subscription, whatever pays it: its calendar from the create body, active at its first cycle,
 * with what the payment method adds (`extra`). The insert owes subscription.created (src/events/outbox.ts).
 */
async function storeSubscription(
  id: number,
  merchantId: number,
  input: SubscriptionCreateInput,
  extra: Partial<Subscription>,
): Promise<Subscription> {
  const fields = {
    firstDueDate: input.firstDueDate,
    billingCycle: input.billingCycle,
    endDate: input.endDate ?? null,
    maxCycles: input.maxCycles ?? null,
  };
  const createdAt = now();
  const doc = {
    _id: id,
    merchantId,
    value: input.value,
    ...fields,
    retry: input.retry,
    status: 'active' as const,
    nextDueDate: cycleDueDate(fields, 0),
    nextCycle: 0,
    description: input.description ?? null,
    ...extra,
    createdAt,
    updatedAt: createdAt,
  };
  const owed = oweEvents([subscriptionEvent('subscription.created', doc as Subscription)], createdAt);
  const sub = await insertDocument(SubscriptionModel, { ...doc, ...owedFields(owed) });
  await recordOwed(SubscriptionModel, id, owed);
  return sub;
}

/**
 * Stores the subscription; when its first due date is today (the UTC day, see clock.ts) its first
 * charge is created PENDING and its job queued before this returns (startFirstCycleIfDue), so the
 * answer already shows the following cycle as next due and the charge list shows the charge.
 */
export async function createSubscription(
  merchantId: number,
  body: unknown,
  hooks: CreateSubscriptionHooks = {},
): Promise<Subscription> {
  const { input, card: checkedCard } = checkCreate(body);
  if (input.paymentMethod === 'pix_automatico') return createPixAutomaticoSubscription(merchantId, input);
  const card = checkedCard!;
  const summary = summarizeCard(card);
  const brand = cardBrand(card.number);
  // The clear card goes to the acquirer once, to become a token; only the token and the summary stay.
  let cardToken: string;
  try {
    ({ cardToken } = await tokenizeCard({
      number: card.number,
      holder: card.holder,
      expMonth: card.expMonth,
      expYear: card.expYear,
      brand,
    }));
  } catch (error) {
    // The acquirer answered and refused the card (brand not accepted, bad number...): the caller's input, not a gateway
    // fault.
    if (error instanceof AcquirerRejectedError && (error.httpStatus === 400 || error.httpStatus === 422)) {
      throw badRequest({
        encryptedCard: [`The acquirer refused this card${error.errors[0] ? `: ${error.errors[0].Message}` : ''}.`],
      });
    }
    throw error;
  }
  const id = await nextId(SUBSCRIPTION_SEQUENCE);
  const sub = await storeSubscription(id, merchantId, input, {
    card: {
      token: cardToken,
      brand: summary.brand,
      bin: summary.bin,
      last4: summary.last4,
      holder: summary.holder,
      expMonth: summary.expMonth,
      expYear: summary.expYear,
    },
    customer: { name: input.customer?.name?.trim() || card.holder, identity: input.customer?.identity ?? null },
  });
  await hooks.afterInsert?.(sub);
  try {
    if (await startFirstCycleIfDue(sub, now())) return (await SubscriptionModel.findById(id).lean()) ?? sub;
  } catch (err) {
    // The subscription is stored and due, so the scheduler's next tick (or the job, once queued)
    // makes the charge: answering 500 would invite a retry that creates a second subscription.
    logger.warn({ err, subscriptionId: id }, 'first charge of a subscription due today left to the scheduler');
  }
  return sub;
}

/** Ids that are not positive integers name no subscription: 404 like an unknown one. */
export function parseId(raw: unknown): number | null {
  const id = typeof raw === 'number' ? raw : /^\d{1,15}$/.test(String(raw)) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The merchant's subscription; another merchant's or an unknown one is 404 (its existence is not revealed). */
export async function findSubscription(merchantId: number, rawId: unknown): Promise<Subscription> {
  const id = parseId(rawId);
  // Read by _id alone (merchantId compared here: see checkedAfterLookup), the cancellation record beside it.
  const [sub, cancellation] =
    id === null
      ? [null, null]
      : await Promise.all([SubscriptionModel.findById(id).lean(), SubscriptionCancellationModel.findById(id).lean()]);
  if (!sub || sub.merchantId !== merchantId) throw notFound('Subscription not found.');
  return applyCancellation(await applyMandateChanges(sub), cancellation);
}

export async function cancelSubscription(merchantId: number, rawId: unknown): Promise<Subscription> {
  const sub = await findSubscription(merchantId, rawId);
  if (sub.status === 'expired') throw conflict('The subscription has already ended (expired).');
  // Pix Automático: the acquirer is told first; the mandate moves once its GET confirms the cancellation.
  await cancelMandateAtAcquirer(sub);
  // The move owes subscription.cancelled in the same write (src/events/outbox.ts).
  const owed = sub.status === 'active' ? await recordCancellation(sub, now()) : oweEvents([]);
  // No retry is scheduled for a cancelled subscription's charges.
  await SubscriptionChargeModel.updateMany(
    { subscriptionId: sub._id, nextRetryAt: mongoose.trusted({ $ne: null }) },
    { $set: { nextRetryAt: null } },
  );
  await recordOwed(SubscriptionModel, sub._id, owed);
  if (sub.mandate) await confirmMandate(sub.mandate.recurrenceId);
  return applyMandateChanges((await SubscriptionModel.findById(sub._id).lean())!);
}

/** Every charge of the merchant's subscription, oldest due date first. */
export async function listCharges(merchantId: number, rawSubscriptionId: unknown): Promise<ChargeAnswer[]> {
  const sub = await findSubscription(merchantId, rawSubscriptionId);
  const charges = await SubscriptionChargeModel.find({ subscriptionId: sub._id }).sort({ dueDate: 1, _id: 1 }).lean();
  return charges.map((charge) => chargeView(charge, sub));
}

/** Cycles ahead a cycle's amount may be set for: a year of weekly cycles, five of monthly ones. */
const CYCLE_VALUE_HORIZON = 60;

/**
 * A variable Pix Automático mandate's amount for one coming cycle (each cycle is otherwise charged `value`). It
 * must be set before the cycle's send window opens (10 days before its due date): from then on the charge is
 * being sent with the amount it had. It stays between the mandate's minimumValue and maximumValue: the payer
 * authorised no more, and a charge above the maximum is refused before sending anyway (charging.ts).
 */
export async function setCycleValue(merchantId: number, rawId: unknown, body: unknown): Promise<Subscription> {
  const sub = await findSubscription(merchantId, rawId);
  const { value: input, fields } = checkBody(cycleValueUpdate.required(), body);
  if (Object.keys(fields).length) throw badRequest(fields);
  const { dueDate, value } = input as CycleValueInput;
  const mandate = sub.mandate;
  if (!mandate || mandate.maximumValue === null || mandate.maximumValue === undefined)
    throw badRequest({
      value: ['Only a Pix Automático subscription with variable amounts (pixAutomatico.maximumValue) takes one.'],
    });
  if (sub.status !== 'active') throw conflict(`The subscription is ${sub.status}: no cycle of it will be charged.`);
  const minimum = mandate.minimumValue ?? 1;
  if (value < minimum || value > mandate.maximumValue)
    throw badRequest({
      value: [
        `Must be between the mandate's minimumValue ${minimum} and maximumValue ${mandate.maximumValue} (cents).`,
      ],
    });
  const coming = Array.from({ length: CYCLE_VALUE_HORIZON }, (_, i) => cycleDueDate(sub, sub.nextCycle + i));
  if (!sub.nextDueDate || !coming.includes(dueDate))
    throw badRequest({ dueDate: ['Not a coming due date of this subscription (see nextDueDate and billingCycle).'] });
  if (pixSendWindowState(today(), dueDate) !== 'early')
    throw conflict(
      `The charge due ${dueDate} is already in its send window (from 10 days before its due date): its amount is set.`,
    );
  await SubscriptionModel.updateOne({ _id: sub._id }, { $set: { [`cycleValues.${dueDate}`]: value } });
  return findSubscription(merchantId, sub._id);
}
