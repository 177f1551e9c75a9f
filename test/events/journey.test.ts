/**
 * A partner subscribes once ('*') and, while doing a journey of sales, PIX, refunds, a payment link and a
 * subscription, receives each state change as one verified event, in order per object, without polling;
 * the events API answers the same events.
 */
import '../helpers/env';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { call, callJson } from '../helpers/http';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { encryptedTestCard } from '../helpers/cards';
import { closeAcquirerClient, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { Receiver } from '../webhooks/receiver';
import { cardSale, CARDS, pixSale, PRE_CAPTURE } from '../sales/helpers';
import { APPROVED_CARD, readyLink } from '../payment-links/helpers';
import { createSubscription } from '../subscriptions/support';
import { createEndpoint, untilReceived, verifiedAt } from './helpers';
import { RefundModel } from '../../src/payments/refund-model';
import { findSettledSale } from '../../src/sales';
import { sweepUnsettledSales } from '../../src/payments/sweeps';
import { PaymentModel } from '../../src/payments/model';

let app: TestApp;
let sandboxUrl: string;
let merchant: TestMerchant;
const receiver = new Receiver();

test.before(async () => {
  await receiver.start();
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  sandboxUrl = sandbox.url;
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  await startProcess('worker');
  merchant = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

const as = () => bearer(merchant.merchantToken);

// Serial, so it runs before the journey: the sandbox's one-shot refusal then meets only this refund.
test.serial(
  'a refund the acquirer refuses is refund.failed, once, and only to the endpoint that takes it',
  async (t) => {
    // A merchant of its own: the journey below expects exactly its merchant's events.
    const shop = await newMerchant();
    const mine = () => bearer(shop.merchantToken);
    const failures = await createEndpoint(app, shop, {
      url: receiver.url('/refund-failures'),
      enabled_events: ['refund.failed'],
    });
    const sale = (await callJson(app, 'POST', PRE_CAPTURE, mine(), cardSale())).body.data;
    t.is((await callJson(app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, mine())).status, 200);
    await call({ url: sandboxUrl }, 'POST', '/sandbox/faults', {}, { mode: 'refuse', code: '43', operation: 'void' });
    const refused = await callJson(app, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, mine(), {
      value: 1000,
    });
    t.like(refused.body.data, { status: 'failed', acquirer_code: '43' });
    const [event] = await untilReceived(receiver, '/refund-failures', failures.secret, 'refund.failed');
    t.is(event.id, `evt_refund_${refused.body.data.id}_failed`);
    t.like(event.data, { id: refused.body.data.id, status: 'failed', acquirer_code: '43' });
    await untilQueuesIdle();
    // Nothing else of the sale reached an endpoint that asked only for refund.failed.
    t.deepEqual(
      verifiedAt(receiver, '/refund-failures', failures.secret).map((e) => e.type),
      ['refund.failed'],
    );
  },
);

test.serial('a PIX that expires unpaid is pix.expired, once, when the sweep has the acquirer confirm it', async (t) => {
  const shop = await newMerchant();
  const mine = () => bearer(shop.merchantToken);
  const expiries = await createEndpoint(app, shop, { url: receiver.url('/expiries'), enabled_events: ['pix.expired'] });
  const sale = (await callJson(app, 'POST', PRE_CAPTURE, mine(), pixSale({ pix_expires_in: 60 }))).body.data;
  // Its time runs out at the acquirer and on our clock; three minutes on, the sweep asks the acquirer.
  await PaymentModel.updateOne({ _id: sale.id }, { $set: { 'pix.expiresAt': new Date(Date.now() - 1000) } });
  await call({ url: sandboxUrl }, 'POST', `/sandbox/pix/${sale.acquirer.payment_id}/expire`);
  await sweepUnsettledSales(new Date(Date.now() + 3 * 60_000));
  const [event] = await untilReceived(receiver, '/expiries', expiries.secret, 'pix.expired');
  t.is(event.id, `evt_sale_${sale.id}_expired`);
  t.like(event.data, { id: sale.id, sale_status: 'EXPIRED', payment_method: 'pix' });
  await sweepUnsettledSales(new Date(Date.now() + 13 * 60_000));
  await untilQueuesIdle();
  t.deepEqual(
    verifiedAt(receiver, '/expiries', expiries.secret).map((e) => e.id),
    [event.id],
  );
});

test('every state change of the journey arrives once, verified, in order per object, and the API agrees', async (t) => {
  const endpoint = await createEndpoint(app, merchant, { url: receiver.url('/partner'), enabled_events: ['*'] });
  const expected: string[] = [];

  // A card sale: authorized, captured, refunded in part (the refund pending, then settled).
  const sale = (await callJson(app, 'POST', PRE_CAPTURE, as(), cardSale())).body.data;
  expected.push(`evt_sale_${sale.id}_authorized`);
  t.is((await callJson(app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, as())).status, 200);
  expected.push(`evt_sale_${sale.id}_captured`);
  const refund = await callJson(app, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, as(), { value: 1000 });
  t.true([201, 202].includes(refund.status), refund.text);
  const refundId = refund.body.data?.id ?? refund.body.id;
  expected.push(`evt_refund_${refundId}_pending`);
  await eventually(async () => {
    const read = await callJson(app, 'GET', `/api/v1/refunds/${refundId}/`, as());
    return (read.body.data ?? read.body).status === 'succeeded';
  }, 30_000);
  expected.push(`evt_refund_${refundId}_succeeded`, `evt_sale_${sale.id}_refunded_${refundId}`);

  // A card sale cancelled, one denied.
  const toCancel = (await callJson(app, 'POST', PRE_CAPTURE, as(), cardSale())).body.data;
  await callJson(app, 'PUT', `/api/v1/online/sales/${toCancel.id}/cancel-capture/`, as());
  expected.push(`evt_sale_${toCancel.id}_authorized`, `evt_sale_${toCancel.id}_cancelled`);
  const denied = (await callJson(app, 'POST', PRE_CAPTURE, as(), cardSale({}, CARDS.denied05))).body.data;
  expected.push(`evt_sale_${denied.id}_denied`);

  // A PIX paid by the payer (the acquirer notifies us).
  const pix = (await callJson(app, 'POST', PRE_CAPTURE, as(), pixSale())).body.data;
  await callJson(
    { url: sandboxUrl },
    'POST',
    `/sandbox/pix/${pix.acquirer.payment_id}/pay`,
    {},
    {
      notifyUrl: `${app.url}${PAYMENT_NOTIFICATION_PATH}`,
    },
  );
  expected.push(`evt_sale_${pix.id}_paid`);

  // A payment link paid at the checkout.
  const link = await readyLink(app.url, merchant);
  const paid = await callJson(
    app,
    'PUT',
    `/api/v1/checkout-links/${link.guid}/pay`,
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
    },
  );
  t.true(paid.body.approved);
  // Its sale emits what a captured card sale emits, and the link's paid event names it.
  const linkSaleId = (await callJson(app, 'GET', `/api/v1/payment-links/${link.id}/`, as())).body.sale_id;
  expected.push(`evt_sale_${linkSaleId}_captured`, `evt_payment_link_${link.id}_paid`);

  // A subscription created, then cancelled.
  const sub = await createSubscription(app.url, merchant, { firstDueDate: '2030-01-10' });
  t.is(sub.status, 201);
  await callJson(app, 'PUT', `/api/v1/subscriptions/${sub.body.data.id}/cancel/`, as());
  expected.push(`evt_subscription_${sub.body.data.id}_created`, `evt_subscription_${sub.body.data.id}_cancelled`);

  // Subscriptions due today: the first charge confirmed, then refunded; another denied with a retry to come.
  const today = new Date().toISOString().slice(0, 10);
  const paying = await createSubscription(app.url, merchant, { firstDueDate: today, cardLastDigit: 1 });
  const declining = await createSubscription(app.url, merchant, { firstDueDate: today, cardLastDigit: 9 });
  const chargeOf = async (subscriptionId: number, status: number) =>
    eventually(async () => {
      const list = await callJson(app, 'GET', `/api/v1/subscriptions/${subscriptionId}/charges/`, as());
      return list.body.data?.find((c: any) => c.status === status);
    }, 30_000);
  const confirmed = await chargeOf(paying.body.data.id, 1);
  const refunded = await callJson(
    app,
    'PUT',
    `/api/v1/subscriptions/${paying.body.data.id}/charges/${confirmed.id}/refund/`,
    as(),
  );
  t.is(refunded.status, 200, refunded.text);
  const deniedCharge = await chargeOf(declining.body.data.id, 2);
  // The charge is refunded as its sale (src/sales/settled-sales.ts) through the refunds core: the refund's
  // and the sale's events come with the charge's.
  const chargeSale = await findSettledSale(merchant.merchantId, { kind: 'subscription_charge', id: confirmed.id });
  const chargeSaleId = chargeSale!._id;
  const chargeRefund = (await RefundModel.findOne({ saleId: chargeSaleId }).lean())!;
  expected.push(
    `evt_refund_${chargeRefund._id}_pending`,
    `evt_refund_${chargeRefund._id}_succeeded`,
    `evt_sale_${chargeSaleId}_refunded_${chargeRefund._id}`,
  );
  expected.push(
    `evt_subscription_${paying.body.data.id}_created`,
    `evt_subscription_charge_${confirmed.id}_confirmed`,
    `evt_subscription_charge_${confirmed.id}_refunded`,
    `evt_subscription_${declining.body.data.id}_created`,
    `evt_subscription_charge_${deniedCharge.id}_denied_1`,
  );

  const received = (await eventually(() => {
    const events = verifiedAt(receiver, '/partner', endpoint.secret);
    return expected.every((id) => events.some((e) => e.id === id)) && events;
  }, 60_000)) as any[];
  await untilQueuesIdle();
  const ids = verifiedAt(receiver, '/partner', endpoint.secret).map((e) => e.id);
  t.deepEqual([...new Set(ids)].sort(), [...expected].sort(), 'exactly the expected events');
  t.is(ids.length, new Set(ids).size, 'each once');

  // In order per object: the sequence numbers of an object are 1..n, in the order of its changes.
  const byObject = new Map<string, any[]>();
  for (const event of received)
    byObject.set(event.object.kind + event.object.id, [
      ...(byObject.get(event.object.kind + event.object.id) ?? []),
      event,
    ]);
  for (const events of byObject.values()) {
    const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
    t.deepEqual(
      sorted.map((e) => e.sequence),
      sorted.map((_, i) => i + 1),
    );
  }
  const saleEvents = byObject
    .get(`sale${sale.id}`)!
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => e.type);
  t.deepEqual(saleEvents, ['sale.authorized', 'sale.captured', 'sale.refunded']);

  t.like(received.find((e) => e.id === `evt_payment_link_${link.id}_paid`).data, { sale_id: linkSaleId });

  const denial = received.find((e) => e.type === 'subscription_charge.denied');
  t.like(denial.data, { status: 2, denialCode: '51', attempts: 1 });
  t.regex(denial.data.nextRetryAt, /^\d{4}-\d{2}-\d{2}/, 'a soft decline is retried: the event says when');

  // The events API answers the same events, with the same bodies.
  const listed = [];
  let cursor = '';
  do {
    const page = await callJson(app, 'GET', `/api/v1/events/?limit=100${cursor ? `&cursor=${cursor}` : ''}`, as());
    listed.push(...page.body.results);
    cursor = page.body.next_cursor;
  } while (cursor);
  t.deepEqual(listed.map((e) => e.id).sort(), [...expected].sort());
  for (const event of received)
    t.deepEqual(
      listed.find((e) => e.id === event.id),
      event,
    );
});
