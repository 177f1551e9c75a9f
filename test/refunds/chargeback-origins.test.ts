/**
 * A chargeback and a refund never both return a payment, whatever made the payment (issue 39, item 1; issue 37):
 * a link paid by card, a link paid by PIX, a card subscription charge and a Pix Automático first charge (journey 3,
 * recorded with no TID before: both passed), in both orders (an accepted
 * chargeback makes a later refund 422; a pending refund makes an accept 409), with the acquirer's own
 * VoidedAmount showing the money went back at most once. Before the fix the accept found no sale of these
 * by TID and both passed. Data of the earlier release (a settled sale with its TID only under `acquirer`,
 * a charge confirmed with no TID, its sale recorded by a refund with none, a paid link with no sale at all) gets
 * its TID, and its sale, by the backfills.
 * Real processes: the sandbox (card, PIX and chargeback APIs), our app, the sales, refund and charge workers.
 */
import '../helpers/env';
import test from 'ava';
import { useChargebackApiOf } from '../helpers/acquirer';
import { getSale, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { startWorker } from '../../src/queue/queues';
import { RefundModel } from '../../src/payments/refund-model';
import { backfillSettledSaleTids, settledSaleOrderId } from '../../src/sales';
import { PaymentModel } from '../../src/payments/model';
import { backfillChargeTids } from '../../src/subscriptions/charge-tids';
import { SubscriptionChargeModel } from '../../src/subscriptions/model';
import { CHARGE_QUEUE } from '../../jobs/charge-subscription';
import chargeSubscription from '../../jobs/processors/charge-subscription';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import { runSchedulerTick } from '../../workers/scheduler';
import { encryptedTestCard } from '../helpers/cards';
import { acceptChargeback, newEstablishment, notifiedChargeback } from '../helpers/chargeback-notices';
import { callJson } from '../helpers/http';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually } from '../helpers/processes';
import { APPROVED_CARD, checkoutPath, readyLink } from '../payment-links/helpers';
import { sandboxPost, useSalesEnv } from '../sales/helpers';
import { chargeAfterAttempt, newSubscriptionId, pixBody } from '../subscriptions/support';
import { confirmMandate } from '../../src/subscriptions/mandate';
import { backfillLinkSales } from '../../src/payment-links/sale';
import { PaymentLinkModel } from '../../src/payment-links/model';

const env = useSalesEnv();
let ec: string;
let owner: TestMerchant;

test.serial.before(async () => {
  useChargebackApiOf(env.sandbox.url);
  startWorker(REFUNDS_QUEUE, processSendRefunds);
  startWorker(CHARGE_QUEUE, chargeSubscription);
  ec = newEstablishment();
  owner = await newMerchant({ establishmentNumbers: [ec] });
});
test.after.always(() => callJson(env.sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: false }));

const token = () => bearer(owner.merchantToken);

/** A payment of ours as a merchant refunds it, and what the acquirer knows it by. */
interface Paid {
  paymentId: string;
  /** Our sale of it, once one is recorded (a charge's is recorded at its first refund or accept). */
  saleId: () => Promise<number>;
  refund: (value: number) => Promise<{ status: number; body: any }>;
}

const refundOfSale = (saleId: number, value: number) =>
  callJson(env.app, 'POST', `/api/v1/online/sales/${saleId}/refunds/`, token(), { value });

async function linkPaidByCard(value: number): Promise<Paid> {
  const { id, guid } = await readyLink(env.app.url, owner, { value });
  const paid = await callJson(
    env.app,
    'PUT',
    checkoutPath(guid, 'pay'),
    {},
    { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
  );
  if (paid.status !== 200 || !paid.body.approved) throw new Error(`pay failed: ${JSON.stringify(paid.body)}`);
  const saleId = (await callJson(env.app, 'GET', `/api/v1/payment-links/${id}/`, token())).body.sale_id as number;
  const sale = await PaymentModel.findById(saleId).lean();
  return { paymentId: sale!.acquirer.paymentId!, saleId: async () => saleId, refund: (v) => refundOfSale(saleId, v) };
}

async function linkPaidByPix(value: number): Promise<Paid> {
  const { id, guid } = await readyLink(env.app.url, owner, { value, payment_methods: ['card', 'pix'] });
  const code = await callJson(env.app, 'POST', checkoutPath(guid, 'pix'));
  if (code.status !== 200) throw new Error(`no PIX code: ${JSON.stringify(code.body)}`);
  await sandboxPost(env, '/sandbox/pix/pay-code', {
    qr_code: code.body.qrCode,
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
  await eventually(async () => (await callJson(env.app, 'GET', checkoutPath(guid, 'pix'))).body.status === 'paid');
  const saleId = (await callJson(env.app, 'GET', `/api/v1/payment-links/${id}/`, token())).body.sale_id as number;
  const sale = await PaymentModel.findById(saleId).lean();
  return { paymentId: sale!.acquirer.paymentId!, saleId: async () => saleId, refund: (v) => refundOfSale(saleId, v) };
}

let dueDay = 10;
async function subscriptionChargePaid(value: number): Promise<Paid> {
  const firstDueDate = `2031-03-${String(dueDay++).padStart(2, '0')}`;
  const subscriptionId = await newSubscriptionId(env.app.url, owner, { firstDueDate, value, cardLastDigit: 1 });
  await runSchedulerTick(new Date(`${firstDueDate}T09:00:00Z`));
  const charge = await chargeAfterAttempt(subscriptionId, firstDueDate, 1);
  if (charge.status !== 1) throw new Error(`charge not confirmed: ${charge.status}`);
  const origin = { kind: 'subscription_charge' as const, id: charge._id };
  return {
    paymentId: charge.acquirerPaymentId,
    saleId: async () => (await PaymentModel.findOne({ merchantOrderId: settledSaleOrderId(origin) }).lean())!._id,
    refund: (v) =>
      callJson(env.app, 'PUT', `/api/v1/subscriptions/${subscriptionId}/charges/${charge._id}/refund/`, token(), {
        value: v,
      }),
  };
}

/**
 * Pix Automático, journey 3: the payer's approval pays the first charge. Confirmed here by the worker's own
 * step (confirmMandate, which the recurrence's notice runs), so the charge is recorded as production records it.
 */
async function pixAutomaticoFirstCharge(value: number): Promise<Paid> {
  const created = await callJson(
    env.app,
    'POST',
    '/api/v1/subscriptions/',
    token(),
    pixBody({ value }, { journey: 3 }),
  );
  if (created.status !== 201) throw new Error(`not created: ${JSON.stringify(created.body)}`);
  const sub = created.body.data;
  const approved = await callJson(
    env.sandbox,
    'POST',
    '/sandbox/pix-automatico/by-code/approve',
    {},
    // The recurrence's payment notifies our app from now on: its refund's completion too.
    { qr_code: sub.mandate.qrCodeText, notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}` },
  );
  if (approved.status !== 200) throw new Error(`not approved: ${JSON.stringify(approved.body)}`);
  await confirmMandate(sub.mandate.acquirerRecurrenceId);
  const charge = (await SubscriptionChargeModel.findOne({ subscriptionId: sub.id }).lean())!;
  if (charge?.status !== 1) throw new Error(`first charge not confirmed: ${charge?.status}`);
  const origin = { kind: 'subscription_charge' as const, id: charge._id };
  return {
    paymentId: charge.acquirerPaymentId!,
    saleId: async () => (await PaymentModel.findOne({ merchantOrderId: settledSaleOrderId(origin) }).lean())!._id,
    refund: (v) =>
      callJson(env.app, 'PUT', `/api/v1/subscriptions/${sub.id}/charges/${charge._id}/refund/`, token(), { value: v }),
  };
}

/** The acquirer notifies a chargeback of the payment, naming it by the TID the acquirer itself gave it. */
async function chargebackOf(paid: Paid, value: number): Promise<number> {
  const tid = (await getSale(paid.paymentId))!.tid!;
  return notifiedChargeback(env.sandbox, ec, tid, value);
}

const accept = (idChargeback: number) => acceptChargeback(env.app, token(), ec, idChargeback);

/** What the acquirer gave back of the payment (VoidedAmount), once nothing of ours is pending on it. */
const returnedByAcquirer = async (paid: Paid) => (await getSale(paid.paymentId))!.voidedAmountCents;

const ORIGINS = {
  'a link paid by card': linkPaidByCard,
  'a link paid by PIX': linkPaidByPix,
  'a card subscription charge': subscriptionChargePaid,
  // Its name says PIX: its refund is a PIX refund, held at the sandbox by the same switch.
  'a PIX Automático first charge': pixAutomaticoFirstCharge,
};

for (const [name, pay] of Object.entries(ORIGINS)) {
  test.serial(`${name}: an accepted chargeback makes a later refund 422, and nothing is returned`, async (t) => {
    const paid = await pay(7000);
    const idChargeback = await chargebackOf(paid, 7000);
    const accepted = await accept(idChargeback);
    t.is(accepted.status, 200, JSON.stringify(accepted.body));
    t.is(accepted.body[0].code, '101');
    const late = await paid.refund(7000);
    t.is(late.status, 422, JSON.stringify(late.body));
    t.regex(late.body.detail, /chargeback/);
    t.is(await returnedByAcquirer(paid), 0);
    t.is(await RefundModel.countDocuments({ saleId: await paid.saleId(), kind: 'refund' }), 0);
  });

  test.serial(
    `${name}: an accept while a refund is pending is 409, and after it too: the money goes back once`,
    async (t) => {
      const paid = await pay(7000);
      const idChargeback = await chargebackOf(paid, 7000);
      const pix = name.includes('PIX');
      // The refund stays pending at the acquirer: a PIX refund until it completes, a card void for its latency.
      if (pix) await callJson(env.sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: true });
      else
        await sandboxPost(env, '/sandbox/faults', {
          mode: 'latency',
          latencyMs: 2000,
          operation: 'void',
          paymentId: paid.paymentId,
        });
      const refunding = paid.refund(3000);
      await eventually(async () => {
        const saleId = await paid.saleId().catch(() => null);
        return saleId !== null && (await RefundModel.exists({ saleId, kind: 'refund', status: 'pending' }));
      });
      const during = await accept(idChargeback);
      t.is(during.status, 409, JSON.stringify(during.body));
      t.regex(during.body.detail, /in progress/);
      t.true([200, 201, 202].includes((await refunding).status));
      if (pix) {
        await callJson(env.sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: false });
      }
      const saleId = await paid.saleId();
      await eventually(async () => !(await RefundModel.exists({ saleId, status: 'pending' })), 30_000);
      const after = await accept(idChargeback);
      t.is(after.status, 409, JSON.stringify(after.body));
      t.regex(after.body.detail, /already had 3000 cents refunded/);
      t.is(await returnedByAcquirer(paid), 3000);
      // The acquirer was never asked to accept: the chargeback is still open there.
      const cases = (await callJson(env.sandbox, 'GET', `/sandbox-cb/_test/cases/${ec}`)).body as {
        idChargeback: number;
        handled: unknown;
      }[];
      t.falsy(cases.find((c) => c.idChargeback === idChargeback)!.handled);
    },
  );
}

test.serial(
  "a link's sale stored by the earlier release (its TID under acquirer only) is held once backfilled",
  async (t) => {
    const paid = await linkPaidByCard(5000);
    const saleId = await paid.saleId();
    await PaymentModel.updateOne({ _id: saleId }, { $set: { acquirerTid: null } });
    const idChargeback = await chargebackOf(paid, 5000);
    t.true((await backfillSettledSaleTids()) >= 1);
    t.is(await backfillSettledSaleTids(), 0, 'a second run finds nothing left');
    const sale = await PaymentModel.findById(saleId).lean();
    t.is(sale!.acquirerTid, (await getSale(paid.paymentId))!.tid);
    t.is((await accept(idChargeback)).status, 200);
    t.is((await paid.refund(5000)).status, 422);
    t.is(await returnedByAcquirer(paid), 0);
  },
);

test.serial(
  'charges confirmed by the earlier release get their TID from the acquirer, and their sale too',
  async (t) => {
    // One charge with no sale yet; one whose partial refund recorded its sale with no TID (as that release did).
    const plain = await subscriptionChargePaid(6000);
    const refunded = await subscriptionChargePaid(6000);
    t.is((await refunded.refund(1000)).status, 200);
    const refundedSaleId = await refunded.saleId();
    await PaymentModel.updateOne({ _id: refundedSaleId }, { $set: { acquirerTid: null, 'acquirer.tid': null } });
    const paymentIds = [plain.paymentId, refunded.paymentId];
    for (const paymentId of paymentIds)
      await SubscriptionChargeModel.updateOne({ acquirerPaymentId: paymentId }, { $unset: { acquirerTid: 1 } });
    const plainCb = await chargebackOf(plain, 6000);
    const refundedCb = await chargebackOf(refunded, 6000);
    // Before the backfill nothing of ours carries these TIDs: the accept would find nothing to hold.
    for (const paymentId of paymentIds)
      t.is((await SubscriptionChargeModel.findOne({ acquirerPaymentId: paymentId }).lean())!.acquirerTid, undefined);

    const confirmedAt = (await SubscriptionChargeModel.findOne({ acquirerPaymentId: plain.paymentId }).lean())!
      .updatedAt;
    t.true((await backfillChargeTids()) >= 2);
    // The refund window counts from the charge's confirmation (its updatedAt): the backfill leaves it.
    const backfilled = await SubscriptionChargeModel.findOne({ acquirerPaymentId: plain.paymentId }).lean();
    t.deepEqual(backfilled!.updatedAt, confirmedAt);
    t.is(await backfillChargeTids(), 0, 'a charge asked once is not asked again');
    for (const paid of [plain, refunded]) {
      const charge = await SubscriptionChargeModel.findOne({ acquirerPaymentId: paid.paymentId }).lean();
      t.is(charge!.acquirerTid, (await getSale(paid.paymentId))!.tid);
    }
    t.is((await PaymentModel.findById(refundedSaleId).lean())!.acquirerTid, (await getSale(refunded.paymentId))!.tid);

    t.is((await accept(plainCb)).status, 200);
    t.is((await plain.refund(1000)).status, 422);
    const refusedAccept = await accept(refundedCb);
    t.is(refusedAccept.status, 409);
    t.regex(refusedAccept.body.detail, /already had 1000 cents refunded/);
    t.is(await returnedByAcquirer(plain), 0);
    t.is(await returnedByAcquirer(refunded), 1000);
  },
);

test.serial('a link paid before link sales existed gets its sale from the backfill, and is held', async (t) => {
  const paid = await linkPaidByCard(4000);
  const saleId = await paid.saleId();
  // As the earlier release left it: the link paid, no sale recorded, no TID kept with the payment.
  const link = (await PaymentLinkModel.findOne({ saleId }).lean())!;
  await PaymentModel.deleteOne({ _id: saleId });
  await PaymentLinkModel.updateOne({ _id: link._id }, { $unset: { saleId: 1, 'payment.tid': 1 } });
  const idChargeback = await chargebackOf(paid, 4000);

  t.true((await backfillLinkSales()) >= 1);
  t.is(await backfillLinkSales(), 0, 'a second run finds nothing left');
  const recorded = (await PaymentLinkModel.findById(link._id).lean())!;
  t.truthy(recorded.saleId);
  const sale = (await PaymentModel.findById(recorded.saleId).lean())!;
  t.is(sale.acquirerTid, (await getSale(paid.paymentId))!.tid, 'the TID asked of the acquirer');

  // The accept holds the sale before the merchant ever read the link; its refund is then refused.
  t.is((await accept(idChargeback)).status, 200);
  const late = await refundOfSale(sale._id, 4000);
  t.is(late.status, 422, JSON.stringify(late.body));
  t.is(await returnedByAcquirer(paid), 0);
});

test.serial(
  "a subscription charge's refund with no body after an accepted chargeback is 422, as the sale's",
  async (t) => {
    const paid = await subscriptionChargePaid(5000);
    t.is((await accept(await chargebackOf(paid, 5000))).status, 200);
    // The contract's call asks for all that is left: nothing is, because the chargeback took it, not a refund.
    const all = await paid.refund(undefined as unknown as number);
    t.is(all.status, 422, JSON.stringify(all.body));
    t.regex(all.body.detail, /chargeback/);
    t.is(await returnedByAcquirer(paid), 0);
  },
);
