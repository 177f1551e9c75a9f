/**
 * Refunds of paid payment links: the link's read names the card sale its payment is recorded as, that
 * sale is refunded through the sales' refunds route, and the link's webhook receives each refund's
 * outcome (Standard Webhooks, signed), once per refund. Real processes: the sandbox, our app, the
 * refund and webhook-delivery workers, a local receiver.
 */
import '../helpers/env';
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { getConfig } from '../../config';
import { closeAcquirerClient, getSale } from '../../src/acquirer/client';
import { startWorker } from '../../src/queue/queues';
import { linkWebhookProcessor } from '../../jobs/processors/link-webhook';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import { PaymentModel } from '../../src/payments/model';
import { settledSaleOrderId } from '../../src/sales';
import { PaymentLinkModel } from '../../src/payment-links/model';
import { RefundModel } from '../../src/payments/refund-model';
import { refundSucceededForOrigin } from '../../src/refunds/origins';
import { WebhookEventModel } from '../../src/webhooks/model';
import { startTestApp, type TestApp } from '../helpers/app';
import { encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { Receiver } from '../webhooks/receiver';
import { APPROVED_CARD, checkoutPath, readyLink } from '../payment-links/helpers';

let app: TestApp;
let sandbox: RunningProcess;
let merchant: TestMerchant;
let other: TestMerchant;
const receiver = new Receiver();

test.before(async () => {
  await receiver.start();
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = receiver.host;
  process.env.WEBHOOK_RETRY_BASE_MS = '150';
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  if (getConfig().acquirer.baseUrl !== sandbox.url) throw new Error('config was loaded before the test set it');
  startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, linkWebhookProcessor.worker);
  startWorker(REFUNDS_QUEUE, processSendRefunds);
  merchant = await newMerchant({ companyName: 'Volta Sempre ME' });
  other = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

const token = (who = merchant) => bearer(who.merchantToken);
const readLink = (id: number, who = merchant) => callJson(app, 'GET', `/api/v1/payment-links/${id}/`, token(who));
const refundSale = (saleId: number, body: unknown = {}, who = merchant) =>
  callJson(app, 'POST', `/api/v1/online/sales/${saleId}/refunds/`, token(who), body);
const readSale = async (id: number) => (await callJson(app, 'GET', `/api/v1/online/sales/${id}/`, token())).body.data;

/** A link of `value` cents with a webhook at `path` of the receiver, paid by an approved card. */
async function paidLink(value: number, path: string) {
  const { id, guid } = await readyLink(app.url, merchant, { value, webhookUrl: receiver.url(path) });
  const paid = await callJson(
    app,
    'PUT',
    checkoutPath(guid, 'pay'),
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
    },
  );
  if (paid.status !== 200 || !paid.body.approved) throw new Error(`pay failed: ${JSON.stringify(paid.body)}`);
  return id;
}

async function settled(refundId: number) {
  return eventually(async () => {
    const read = await callJson(app, 'GET', `/api/v1/refunds/${refundId}/`, token());
    return read.body.data.status !== 'pending' ? read.body.data : undefined;
  }, 30_000);
}

/** The deliveries of `path`, verified against the merchant's signing secret, as parsed payloads. */
async function deliveredTo(path: string, count: number) {
  const secret = (await callJson(app, 'GET', '/api/v1/webhooks/secret/', token())).body.secret as string;
  await eventually(() => (receiver.at(path).length >= count ? true : undefined), 30_000);
  const verifier = new Webhook(secret);
  return receiver.at(path).map((delivery) => verifier.verify(delivery.body, delivery.headers) as any);
}

test.serial("a paid link names its sale; the sale's refunds reach the link's webhook, signed, once each", async (t) => {
  const id = await paidLink(2700, '/refunded');
  const link = await readLink(id);
  t.is(link.status, 200);
  t.is(link.body.status, 2);
  t.true(Number.isInteger(link.body.sale_id));
  const saleId = link.body.sale_id as number;
  const stored = (await PaymentLinkModel.findById(id).lean())!;
  t.is(stored.saleId, saleId, 'recorded with the payment, not by the read');
  const sale = await readSale(saleId);
  t.like(sale, {
    sale_status: 'CONFIRMED',
    payment_method: 'card',
    value: 2700,
    captured_value: 2700,
    refunded_value: 0,
  });
  t.is(sale.acquirer.payment_id, stored.payment!.acquirerPaymentId);
  t.is(sale.acquirer.tid, stored.payment!.tid);
  t.like(sale.card, { last4: stored.payment!.last4 });
  t.deepEqual(sale.origin, { kind: 'payment_link', id });

  const first = await refundSale(saleId, { value: 700, reason: 'item_returned' });
  t.is(first.status, 201);
  t.like(first.body.data, { status: 'succeeded', value: 700, sale_id: saleId });
  const rest = await refundSale(saleId);
  t.is(rest.status, 202);
  t.is((await settled(rest.body.data.id)).status, 'succeeded');
  t.like(await readSale(saleId), { sale_status: 'REFUNDED', refunded_value: 2700 });
  t.is((await getSale(stored.payment!.acquirerPaymentId))!.voidedAmountCents, 2700);
  t.is((await readLink(id)).body.status, 2, 'the link stays paid (2 Pago)');

  const events = await deliveredTo('/refunded', 3);
  t.deepEqual(
    events.map((event) => event.type),
    ['payment_link.paid', 'payment_link.refund_succeeded', 'payment_link.refund_succeeded'],
  );
  t.like(events[1].data, {
    id,
    status: 2,
    sale_id: saleId,
    refunded_value: 700,
    refund: { id: first.body.data.id, value: 700, status: 'succeeded', reason: 'item_returned' },
  });
  t.like(events[2].data, { sale_id: saleId, refunded_value: 2700, refund: { id: rest.body.data.id, value: 2000 } });
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.refund_succeeded' }), 2);
});

test.serial("a refund the acquirer refuses: the link's webhook receives refund_failed with the reason", async (t) => {
  const id = await paidLink(1500, '/refused');
  const saleId = (await readLink(id)).body.sale_id as number;
  const paymentId = (await PaymentLinkModel.findById(id).lean())!.payment!.acquirerPaymentId;
  await callJson(sandbox, 'POST', '/sandbox/faults', {}, { mode: 'refuse', code: '43', operation: 'void', paymentId });
  const res = await refundSale(saleId, { value: 500 });
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'failed', acquirer_code: '43' });
  const events = await deliveredTo('/refused', 2);
  t.is(events[1].type, 'payment_link.refund_failed');
  t.like(events[1].data, { sale_id: saleId, refunded_value: 0, refund: { id: res.body.data.id, status: 'failed' } });
  t.regex(events[1].data.refund.failure_reason, /balance/);
  t.like(await readSale(saleId), { sale_status: 'CONFIRMED', refunded_value: 0 });
});

test.serial('a link paid before its sale was recorded gets one on its first reads, however many at once', async (t) => {
  const id = await paidLink(1800, '/older');
  // As a link paid before sales were recorded for links: no sale, no sale id.
  await PaymentModel.deleteOne({ merchantOrderId: settledSaleOrderId({ kind: 'payment_link', id }) });
  await PaymentLinkModel.updateOne({ _id: id }, { $unset: { saleId: 1 } });
  const reads = await Promise.all(Array.from({ length: 5 }, () => readLink(id)));
  const saleIds = new Set(reads.map((read) => read.body.sale_id));
  t.is(saleIds.size, 1);
  const [saleId] = saleIds;
  t.true(Number.isInteger(saleId));
  t.is(await PaymentModel.countDocuments({ merchantOrderId: settledSaleOrderId({ kind: 'payment_link', id }) }), 1);
  t.is((await PaymentLinkModel.findById(id).lean())!.saleId, saleId);
  t.is((await refundSale(saleId, { value: 1800 })).body.data.status, 'succeeded');
});

test.serial("another merchant's link sale is 404; hostile values are 400 naming value", async (t) => {
  const id = await paidLink(1200, '/hostile');
  const saleId = (await readLink(id)).body.sale_id as number;
  t.is((await readLink(id, other)).status, 404);
  t.is((await refundSale(saleId, { value: 100 }, other)).status, 404);
  for (const value of [-5, 0, 2.5, '100', 1e12]) {
    const res = await refundSale(saleId, { value });
    t.is(res.status, 400, JSON.stringify(value));
    t.deepEqual(Object.keys(res.body), ['value']);
  }
  t.is((await refundSale(saleId, { value: 1201 })).status, 422);
  t.is(await RefundModel.countDocuments({ saleId }), 0);
});

test.serial('a succeeded refund settled twice (a crash before its own write) stores its event once', async (t) => {
  const id = await paidLink(1000, '/twice');
  const saleId = (await readLink(id)).body.sale_id as number;
  const res = await refundSale(saleId, { value: 400 });
  t.is(res.body.data.status, 'succeeded');
  const sale = (await PaymentModel.findById(saleId).lean())!;
  const refund = (await RefundModel.findById(res.body.data.id).lean())!;
  await refundSucceededForOrigin(sale, refund, 400, false);
  await refundSucceededForOrigin(sale, refund, 400, false);
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.refund_succeeded' }), 1);
});
