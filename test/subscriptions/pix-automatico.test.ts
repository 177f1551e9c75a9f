/**
 * Pix Automático mandates (issue 29, first part), with real processes: the acquirer sandbox (the payer's
 * bank), the web process (our API and the notice intake) and a worker applying the notices. A mandate
 * moves only once the acquirer's GET says so; each move is one event; a payer's cancellation stops the
 * subscription; the merchant's cancel reaches the acquirer.
 */
import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { PAYMENT_NOTIFICATION_PATH, NOTIFICATION_SIGNATURE_HEADER } from '../../src/acquirer/client';
import { AccountEventModel } from '../../src/events/model';
import { PaymentNoticeModel } from '../../src/payments/model';
import { NOTICE_QUEUE } from '../../jobs/apply-payment-notice';
import { untilQueuesIdle } from '../helpers/queues';
import { closeQueues } from '../../src/queue/queues';
import { signNotice } from '../../src/sales';
import { MandateChangeModel, SubscriptionChargeModel } from '../../src/subscriptions/model';
import { addMonths } from '../../src/subscriptions/clock';
import { sha256Hex } from '../../src/platform/digests';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson, send } from '../helpers/http';
import { eventually, type RunningProcess } from '../helpers/processes';
import { encryptedTestCard } from '../helpers/cards';
import {
  createPixSubscription,
  PIX_FIRST_DUE_DATE as future,
  pixBody,
  startPixStack,
  stopPixStack,
  subscriptionCard,
} from './support';

let sandbox: RunningProcess;
let web: RunningProcess;
let merchant: TestMerchant;
let other: TestMerchant;

test.before(async () => {
  ({ sandbox, web } = await startPixStack({ acquirerTimeoutMs: 5000 }));
  merchant = await newMerchant();
  other = await newMerchant();
});

test.after.always(async () => {
  await stopPixStack();
  await closeQueues(); // the queue reads of untilQueuesIdle
});

const api = (method: string, path: string, body?: unknown, who: TestMerchant = merchant) =>
  callJson(web, method, path, bearer(who.merchantToken), body);

const createPix = (overrides: Record<string, unknown> = {}, pix: Record<string, unknown> = {}) =>
  createPixSubscription(web, merchant, overrides, pix);

const read = async (id: number) => (await api('GET', `/api/v1/subscriptions/${id}/`)).body.data;

/** The payer's bank app acts on the QR code it read (approve, reject) or on the recurrence (cancel). */
const payer = (action: 'approve' | 'reject' | 'cancel', qrOrId: { qr_code: string } | string, body = {}) =>
  callJson(
    sandbox,
    'POST',
    `/sandbox/pix-automatico/${typeof qrOrId === 'string' ? qrOrId : 'by-code'}/${action}`,
    {},
    { ...(typeof qrOrId === 'string' ? {} : qrOrId), ...body },
  );

const untilMandate = (id: number, status: string) =>
  eventually(async () => {
    const sub = await read(id);
    return sub.mandate.status === status && sub;
  }, 30_000);

const eventsOf = (id: number, type: string) => AccountEventModel.countDocuments({ objectId: String(id), type });

/**
 * Waits for the event (recorded just after the move shows), then until no notice job is left to run: a racing
 * worker's duplicate would come from one, so the count is final then.
 */
async function eventCount(id: number, type: string): Promise<number> {
  await eventually(async () => (await eventsOf(id, type)) > 0, 15_000);
  await untilQueuesIdle([NOTICE_QUEUE]);
  return eventsOf(id, type);
}

/**
 * Notices the web took in so far (its request log lines). The sandbox sends some after answering, and a
 * recurrence's notices repeat one body (stored once, each taken in queues its job again), so a new one is
 * seen here rather than in the store.
 */
const noticesTakenIn = () =>
  (web.logs.join('').match(/"url":"\/api\/v1\/online\/sales\/notifications\/"},"res":\{"statusCode":200/g) ?? [])
    .length;

/** What the acquirer says of the recurrence (its GET, as our worker reads it). */
async function atAcquirer(recurrenceId: string) {
  const { merchantId, merchantKey } = getConfig().acquirer;
  const res = await callJson(sandbox, 'GET', `/1/RecurrentPayment/${recurrenceId}`, {
    MerchantId: merchantId,
    MerchantKey: merchantKey,
  });
  return res.body.RecurrentPayment;
}

/** A notice as the acquirer signs it, POSTed to the web process; waits until the worker applied it. */
async function postNotice(body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const res = await fetch(`${web.url}${PAYMENT_NOTIFICATION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [NOTIFICATION_SIGNATURE_HEADER]: signNotice(raw) },
    body: raw,
  });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`notice refused: ${res.status}`);
  await eventually(async () => (await PaymentNoticeModel.findById(sha256Hex(raw)).lean())?.appliedAt, 30_000);
}

test.serial('journey 2: the QR code, the payer approves, APPROVED once the GET confirms it, one event', async (t) => {
  const sub = await createPix();
  t.is(sub.paymentMethod, 'pix_automatico');
  t.is(sub.card, null);
  t.is(sub.status, 'active');
  t.like(sub.mandate, { status: 'CREATED', journey: 2, retryPolicy: 'Allowed_3R_7D', amountType: 'fixed' });
  t.regex(sub.mandate.qrCodeImage, /^data:image\/png;base64,iVBOR/);
  t.regex(sub.mandate.qrCodeText, /^000201.*6304[0-9A-F]{4}$/);
  t.true(Date.parse(sub.mandate.expiresAt) > Date.now() + 23 * 3600_000);
  t.like(await atAcquirer(sub.mandate.acquirerRecurrenceId), {
    Status: 'Created',
    AuthorizeNow: false,
    Interval: 'Monthly',
    RetryPolicy: 'Allowed_3R_7D',
    Amount: 4990,
    Plan: 'Plano mensal',
    StartDate: future,
  });

  t.is((await payer('approve', { qr_code: sub.mandate.qrCodeText })).status, 200);
  const approved = await untilMandate(sub.id, 'APPROVED');
  t.truthy(approved.mandate.approvedAt);
  t.is(approved.mandate.qrCodeImage, null, 'the QR code is not shown once used');
  t.is(approved.status, 'active');
  t.is(approved.nextDueDate, future, 'journey 2: the first charge is still to come');
  t.is((await api('GET', `/api/v1/subscriptions/${sub.id}/charges/`)).body.data.length, 0);
  // The same notice again (the acquirer's retry): nothing more.
  await postNotice({
    PaymentId: (await atAcquirer(sub.mandate.acquirerRecurrenceId)).PaymentId,
    RecurrentPaymentId: sub.mandate.acquirerRecurrenceId,
    ChangeType: 4,
  });
  t.is(await eventCount(sub.id, 'subscription.mandate_approved'), 1);
  t.is(await MandateChangeModel.countDocuments({ subscriptionId: sub.id }), 1);
  // A second approval is refused by the bank: the mandate is no longer waiting.
  t.is((await payer('approve', sub.mandate.acquirerRecurrenceId)).status, 400);
});

test.serial('journey 3: the approval pays the first charge, listed CONFIRMED; the next cycle is due', async (t) => {
  const sub = await createPix({ value: 2990 }, { journey: 3 });
  const recurrence = await atAcquirer(sub.mandate.acquirerRecurrenceId);
  t.like(recurrence, { AuthorizeNow: true, FirstPayment: { Status: 12, Amount: 2990 } });
  t.is((await payer('approve', { qr_code: sub.mandate.qrCodeText })).status, 200);
  const approved = await untilMandate(sub.id, 'APPROVED');
  t.is(approved.nextDueDate, addMonths(future, 1));
  const charges = (await api('GET', `/api/v1/subscriptions/${sub.id}/charges/`)).body.data;
  t.is(charges.length, 1);
  t.like(charges[0], { status: 1, value: 2990, dueDate: future, attempts: 1, acquirerPaymentId: recurrence.PaymentId });
  t.true(Number.isInteger(charges[0].paymentTransactionId));
  t.is(await eventCount(charges[0].id, 'subscription_charge.confirmed'), 1);
  t.is(await eventCount(sub.id, 'subscription.mandate_approved'), 1);
});

test.serial('the payer rejects: REJECTED with the reason, the subscription cancelled, one event', async (t) => {
  const sub = await createPix({}, { journey: 3 });
  const rejected = await payer('reject', { qr_code: sub.mandate.qrCodeText }, { reason: 'Não reconheço' });
  t.is(rejected.status, 200);
  const after = await untilMandate(sub.id, 'REJECTED');
  t.like(after.mandate.rejection, { code: 'AP13', reason: 'Não reconheço' });
  t.truthy(after.mandate.rejectedAt);
  t.is(after.status, 'cancelled');
  t.is(after.nextDueDate, null);
  t.is(await eventCount(sub.id, 'subscription.mandate_rejected'), 1);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: sub.id }), 0, 'no first charge recorded');
});

test.serial('a signed notice the GET contradicts moves nothing (forged, or replayed after a change)', async (t) => {
  const sub = await createPix();
  const recurrenceId = sub.mandate.acquirerRecurrenceId;
  const { PaymentId } = await atAcquirer(recurrenceId);
  // "Approved", says a notice; the acquirer says Created.
  await postNotice({ PaymentId, RecurrentPaymentId: recurrenceId, ChangeType: 4, Forged: 'approved' });
  t.is((await read(sub.id)).mandate.status, 'CREATED');
  t.is(await MandateChangeModel.countDocuments({ subscriptionId: sub.id }), 0);
  t.is(await eventsOf(sub.id, 'subscription.mandate_approved'), 0);
  // A notice naming a recurrence we do not have changes nothing either.
  await postNotice({ PaymentId, RecurrentPaymentId: 'RRNOSUCHRECURRENCE', ChangeType: 4 });
  t.is((await read(sub.id)).mandate.status, 'CREATED');
  // Left CREATED: the expiry test ends it with the sandbox clock.
});

test.serial('the merchant cancels: the acquirer is told, CANCELLED by the merchant in the answer', async (t) => {
  const sub = await createPix();
  await payer('approve', { qr_code: sub.mandate.qrCodeText });
  await untilMandate(sub.id, 'APPROVED');
  const noticesBefore = noticesTakenIn();
  const cancelled = await api('PUT', `/api/v1/subscriptions/${sub.id}/cancel/`);
  t.is(cancelled.status, 200, JSON.stringify(cancelled.body));
  t.is(cancelled.body.data.status, 'cancelled');
  t.like(cancelled.body.data.mandate, { status: 'CANCELLED', cancellation: { by: 'merchant', code: 'SLCR' } });
  t.like(await atAcquirer(sub.mandate.acquirerRecurrenceId), {
    Status: 'Cancelled',
    Cancellation: { RequestedBy: 'Receiver' },
  });
  // Again: the same answer, nothing more at the acquirer or in the events.
  const again = await api('PUT', `/api/v1/subscriptions/${sub.id}/cancel/`);
  t.like(again.body.data.mandate, { status: 'CANCELLED', cancellation: { by: 'merchant' } });
  await eventually(async () => (await eventsOf(sub.id, 'subscription.mandate_cancelled')) === 1, 10_000);
  // The sandbox's own notice of the cancellation, applied by the worker, adds nothing.
  await eventually(() => noticesTakenIn() > noticesBefore);
  await untilQueuesIdle([NOTICE_QUEUE]);
  t.is(await eventsOf(sub.id, 'subscription.mandate_cancelled'), 1);
  t.is(await eventsOf(sub.id, 'subscription.cancelled'), 1);
});

test.serial(
  'the payer cancels in the bank app: CANCELLED by the payer, the reason shown, no charge to come',
  async (t) => {
    const sub = await createPix({}, { journey: 3 });
    await payer('approve', { qr_code: sub.mandate.qrCodeText });
    await untilMandate(sub.id, 'APPROVED');
    const res = await payer('cancel', sub.mandate.acquirerRecurrenceId, { reason: 'Mudei de plano' });
    t.is(res.status, 200);
    const after = await untilMandate(sub.id, 'CANCELLED');
    t.like(after.mandate.cancellation, { by: 'payer', code: 'SLDB', reason: 'Mudei de plano' });
    t.truthy(Date.parse(after.mandate.cancellation.at));
    t.is(after.status, 'cancelled');
    t.is(after.nextDueDate, null, 'the subscription sends no further charge');
    t.is(await eventCount(sub.id, 'subscription.mandate_cancelled'), 1);
    t.is(await eventCount(sub.id, 'subscription.cancelled'), 1);
    // Cancelling it now answers the cancelled subscription; the acquirer is not asked again.
    const cancel = await api('PUT', `/api/v1/subscriptions/${sub.id}/cancel/`);
    t.like(cancel.body.data.mandate.cancellation, { by: 'payer' });
  },
);

test.serial('an unapproved QR code expires by the sandbox clock: EXPIRED, the subscription cancelled', async (t) => {
  const sub = await createPix();
  try {
    const moved = await callJson(sandbox, 'PUT', '/sandbox/clock', {}, { offsetMs: 25 * 3600_000 });
    t.is(moved.status, 200);
    const after = await untilMandate(sub.id, 'EXPIRED');
    t.truthy(after.mandate.expiredAt);
    t.is(after.status, 'cancelled');
    t.is(await eventCount(sub.id, 'subscription.mandate_expired'), 1);
    t.is((await payer('approve', { qr_code: sub.mandate.qrCodeText })).status, 400, 'an expired QR code is refused');
  } finally {
    await send(sandbox, 'DELETE', '/sandbox/clock');
  }
});

test('hostile input: a clear 400 naming the field', async (t) => {
  const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
    [{ billingCycle: 'bimonthly' }, {}, 'billingCycle'],
    [{ billingCycle: 'daily' }, {}, 'billingCycle'],
    [{ value: 10.5 }, {}, 'value'],
    [{ value: -5 }, {}, 'value'],
    [{ paymentMethod: 'boleto' }, {}, 'paymentMethod'],
    [{}, { journey: 4 }, 'pixAutomatico.journey'],
    [{}, { maximumValue: 5000, minimumValue: 6000 }, 'pixAutomatico.minimumValue'],
    [{}, { maximumValue: 4000 }, 'value'],
    [{}, { maximumValue: 0.5 }, 'pixAutomatico.maximumValue'],
    [{}, { minimumValue: 100 }, 'pixAutomatico.minimumValue'],
    [{ customer: { name: 'Sem Documento' } }, {}, 'customer.identity'],
    [{ encryptedCard: encryptedTestCard(subscriptionCard(1)) }, {}, 'encryptedCard'],
    [{ pixAutomatico: undefined }, {}, 'pixAutomatico'],
  ];
  for (const [overrides, pix, field] of cases) {
    const res = await api('POST', '/api/v1/subscriptions/', { ...pixBody(overrides, pix), ...overrides });
    t.is(res.status, 400, `${JSON.stringify(overrides)} ${JSON.stringify(pix)}`);
    t.truthy(res.body[field], `${field} named in ${JSON.stringify(res.body)}`);
  }
  // A card subscription with a pixAutomatico block is refused too.
  const card = await api('POST', '/api/v1/subscriptions/', {
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: future,
    encryptedCard: encryptedTestCard(subscriptionCard(1)),
    pixAutomatico: { journey: 2 },
  });
  t.is(card.status, 400);
  t.truthy(card.body.pixAutomatico);
});

test('variable amounts: the minimum goes to the acquirer, the maximum is kept', async (t) => {
  const sub = await createPix({ value: 3000 }, { maximumValue: 9000, minimumValue: 1000 });
  t.like(sub.mandate, { amountType: 'variable', minimumValue: 1000, maximumValue: 9000 });
  const recurrence = await atAcquirer(sub.mandate.acquirerRecurrenceId);
  t.is(recurrence.MinimumAmount, 1000);
  t.is(recurrence.Amount, undefined);
  const noRetry = await createPix({ retry: false, billingCycle: 'weekly' });
  t.is(noRetry.mandate.retryPolicy, 'none');
  t.like(await atAcquirer(noRetry.mandate.acquirerRecurrenceId), { Interval: 'Weekly', RetryPolicy: undefined });
});

test("another merchant's Pix Automático subscription is 404, read or cancelled; a card one is unchanged", async (t) => {
  const sub = await createPix();
  t.is((await api('GET', `/api/v1/subscriptions/${sub.id}/`, undefined, other)).status, 404);
  t.is((await api('PUT', `/api/v1/subscriptions/${sub.id}/cancel/`, undefined, other)).status, 404);
  t.is((await atAcquirer(sub.mandate.acquirerRecurrenceId)).Status, 'Created', 'not cancelled at the acquirer');
  const card = await api('POST', '/api/v1/subscriptions/', {
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: future,
    encryptedCard: encryptedTestCard(subscriptionCard(1)),
  });
  t.is(card.status, 201, JSON.stringify(card.body));
  t.false('mandate' in card.body.data);
  t.false('paymentMethod' in card.body.data);
  t.like(card.body.data.card, { last4: subscriptionCard(1).number!.slice(-4) });
});
