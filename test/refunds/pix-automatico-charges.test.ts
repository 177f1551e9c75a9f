/**
 * Refunds of a Pix Automático charge (issue 29, part 4): journey 3's first charge, paid with the
 * approval, is refunded through the refund core as a paid PIX, not a card sale: each refund pending
 * (the acquirer's Status 12) until its completion notice, partial and repeated, the charge CONFIRMED
 * with refunded_value until all of it is back, then REFUNDED. Real processes: the sandbox (the payer's
 * bank), our app with its notice and refund workers in this process; the acquirer's VoidedAmount is
 * checked against the succeeded refunds.
 */
import '../helpers/env';
import test from 'ava';
import { getSale, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { startWorker } from '../../src/queue/queues';
import { PaymentModel } from '../../src/payments/model';
import { settledSaleOrderId } from '../../src/sales';
import { RefundModel } from '../../src/payments/refund-model';
import { SubscriptionChargeModel } from '../../src/subscriptions/model';
import { addMonths, dayOf } from '../../src/subscriptions/clock';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import { bearer } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { sandboxPost, useSalesEnv } from '../sales/helpers';

const env = useSalesEnv();
test.serial.before(() => {
  startWorker(REFUNDS_QUEUE, processSendRefunds);
});

const token = () => bearer(env.merchant.merchantToken);
const api = (method: string, path: string, body?: unknown) => callJson(env.app, method, path, token(), body);
const firstDueDate = addMonths(dayOf(new Date()), 1);

/** Journey 3 approved by the payer's bank: its first charge, CONFIRMED with the approval's payment. */
async function paidFirstCharge(value: number) {
  const created = await api('POST', '/api/v1/subscriptions/', {
    paymentMethod: 'pix_automatico',
    value,
    billingCycle: 'monthly',
    firstDueDate,
    customer: { name: 'Joana Pagadora', identity: '52998224725' },
    description: 'Clube do livro',
    pixAutomatico: { journey: 3 },
  });
  if (created.status !== 201) throw new Error(`not created: ${created.status} ${JSON.stringify(created.body)}`);
  const sub = created.body.data;
  const approved = await sandboxPost(env, '/sandbox/pix-automatico/by-code/approve', {
    qr_code: sub.mandate.qrCodeText,
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
  if (approved.status !== 200) throw new Error(`not approved: ${approved.status}`);
  const charge = await eventually(async () => {
    const list = (await api('GET', `/api/v1/subscriptions/${sub.id}/charges/`)).body.data;
    return list[0]?.status === 1 && list[0];
  }, 30_000);
  return { subscriptionId: sub.id as number, charge };
}

const refund = (subscriptionId: number, chargeId: number, body?: unknown) =>
  api('PUT', `/api/v1/subscriptions/${subscriptionId}/charges/${chargeId}/refund/`, body);
const chargeRead = async (subscriptionId: number) =>
  (await api('GET', `/api/v1/subscriptions/${subscriptionId}/charges/`)).body.data[0];
const saleOf = (chargeId: number) =>
  PaymentModel.findOne({
    merchantOrderId: settledSaleOrderId({ kind: 'subscription_charge', id: chargeId }),
  }).lean();

async function settled(refundId: number) {
  return eventually(
    async () => {
      const read = await api('GET', `/api/v1/refunds/${refundId}/`);
      return read.body.data.status === 'pending' ? null : read.body.data;
    },
    40_000,
    200,
  );
}

/** The acquirer's VoidedAmount of the payment equals the sum of the sale's succeeded refunds. */
async function voidedMatches(t: import('ava').ExecutionContext, saleId: number, paymentId: string) {
  const succeeded = (await RefundModel.find({ saleId, status: 'succeeded' }).lean()).reduce(
    (sum, r) => sum + r.valueCents,
    0,
  );
  t.is((await getSale(paymentId))!.voidedAmountCents, succeeded);
  return succeeded;
}

test.serial(
  'journey 3 first charge refunded in two parts as a PIX: pending, notice, succeeded, REFUNDED',
  async (t) => {
    const { subscriptionId, charge } = await paidFirstCharge(6000);
    t.is(charge.refunded_value, undefined);

    const first = await refund(subscriptionId, charge.id, { value: 2500 });
    t.is(first.status, 202, 'a PIX refund is accepted (Status 12) and completes by notice');
    t.like(first.body.data, { id: charge.id, status: 1 });
    const sale = (await saleOf(charge.id))!;
    t.like(sale, {
      paymentMethod: 'pix',
      card: null,
      acquirerPaymentId: charge.acquirerPaymentId,
      capturedValue: 6000,
      origin: { kind: 'subscription_charge', id: charge.id },
    });
    t.truthy(sale.pix?.paidAt, 'the 90-day window counts from the payment');
    t.is((await SubscriptionChargeModel.findById(charge.id).lean())!.saleId, undefined, 'found by origin, not linked');
    const pending = (await RefundModel.find({ saleId: sale._id }).lean())[0];
    t.like(pending, { status: 'pending', valueCents: 2500 });
    t.true(pending.sent!.accepted, "the acquirer's Status 12 recorded: never sent again");

    t.is((await settled(pending._id)).status, 'succeeded');
    t.like(await chargeRead(subscriptionId), { status: 1, refunded_value: 2500 });
    t.like(await PaymentModel.findById(sale._id).lean(), { status: 'PARTIALLY_REFUNDED', refundedValue: 2500 });

    const tooMuch = await refund(subscriptionId, charge.id, { value: 4000 });
    t.is(tooMuch.status, 422);
    t.regex(tooMuch.body.detail, /At most 3500 cents/);

    // The contract's call with no body: all that is left.
    const rest = await refund(subscriptionId, charge.id);
    t.is(rest.status, 202);
    const refundId = Number(/\/refunds\/(\d+)\//.exec(rest.headers.get('location') ?? '')?.[1]);
    t.is((await settled(refundId)).status, 'succeeded');
    const done = await chargeRead(subscriptionId);
    t.like(done, { status: 3, refunded_value: 6000 });
    t.is(done.paymentTransactionId, charge.paymentTransactionId);
    t.is(await voidedMatches(t, sale._id, charge.acquirerPaymentId), 6000);
    t.is((await getSale(charge.acquirerPaymentId))!.status, 11);

    // Fully refunded: the contract's call answers the charge as it is, a value is 422; nothing more at the acquirer.
    const again = await refund(subscriptionId, charge.id);
    t.is(again.status, 200);
    t.deepEqual(again.body.data, done);
    t.is((await refund(subscriptionId, charge.id, { value: 1 })).status, 422);
    t.is(await voidedMatches(t, sale._id, charge.acquirerPaymentId), 6000);
  },
);

test.serial(
  "a charge's sale is found by its origin: a saleId lost or wrong on the charge changes nothing",
  async (t) => {
    const { subscriptionId, charge } = await paidFirstCharge(3000);
    const first = await refund(subscriptionId, charge.id, { value: 1000 });
    t.is(first.status, 202);
    const sale = (await saleOf(charge.id))!;
    await eventually(async () => (await chargeRead(subscriptionId)).refunded_value === 1000, 40_000);
    // What an older process's link to the sale could leave: pointing nowhere.
    await SubscriptionChargeModel.updateOne({ _id: charge.id }, { $set: { saleId: 999_999_999 } });
    const second = await refund(subscriptionId, charge.id, { value: 500 });
    t.is(second.status, 202, JSON.stringify(second.body));
    await eventually(async () => (await chargeRead(subscriptionId)).refunded_value === 1500, 40_000);
    t.is(await PaymentModel.countDocuments({ 'origin.id': charge.id, merchantId: env.merchant.merchantId }), 1);
    t.is(await voidedMatches(t, sale._id, charge.acquirerPaymentId), 1500);
    t.like(await chargeRead(subscriptionId), { status: 1, refunded_value: 1500 });
  },
);
