/**
 * One event story for a paid link, whatever the payer paid with (issue: a newcomer's item 4). The sale
 * behind the link emits what a sale of the sales API emits on reaching CONFIRMED (a card's sale.captured,
 * a PIX's pix.paid), then payment_link.paid names that sale (`sale_id`, the sale a refund goes to). The
 * account endpoint and the link's own webhookUrl carry the same payment_link.paid data. The card sale's event
 * is owed by the link's claim as payment_link.paid is: a pay that died before recording them, or whose
 * recording failed, leaves them to the stale-payment sweep.
 */
import '../helpers/env';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { encryptedTestCard } from '../helpers/cards';
import { closeAcquirerClient, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { Receiver } from '../webhooks/receiver';
import { APPROVED_CARD, checkoutPath, readyLink } from '../payment-links/helpers';
import { createEndpoint, verifiedAt } from './helpers';
import mongoose from 'mongoose';
import { AccountEventModel } from '../../src/events/model';
import { settleStalePayments } from '../../src/checkout/service';
import { PaymentClaimModel, PaymentLinkModel, type PaymentLink } from '../../src/payment-links/model';

let app: TestApp;
let sandboxUrl: string;
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
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

async function paidByCard(merchant: TestMerchant, webhookUrl: string): Promise<number> {
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl });
  const card = encryptedTestCard({ number: APPROVED_CARD });
  const paid = await callJson(app, 'PUT', checkoutPath(guid, 'pay'), {}, { encrypted_card: card });
  if (!paid.body.approved) throw new Error(`card pay not approved: ${paid.text}`);
  return id;
}

async function paidByPix(merchant: TestMerchant, webhookUrl: string): Promise<number> {
  const { id, guid } = await readyLink(app.url, merchant, { payment_methods: ['pix'], webhookUrl });
  const code = await callJson(app, 'POST', checkoutPath(guid, 'pix'));
  if (code.status !== 200) throw new Error(`no QR code: ${code.text}`);
  // The payer's bank app pays the code; the acquirer notifies us and the worker applies the notice.
  const notifyUrl = `${app.url}${PAYMENT_NOTIFICATION_PATH}`;
  await callJson({ url: sandboxUrl }, 'POST', '/sandbox/pix/pay-code', {}, { qr_code: code.body.qrCode, notifyUrl });
  return id;
}

const PAYS = {
  card: { pay: paidByCard, saleEvent: 'sale.captured' },
  pix: { pay: paidByPix, saleEvent: 'pix.paid' },
};

const tellsOneStory = test.macro(async (t, method: keyof typeof PAYS) => {
  const { pay, saleEvent } = PAYS[method];
  const merchant = await newMerchant();
  const as = () => bearer(merchant.merchantToken);
  const endpoint = await createEndpoint(app, merchant, {
    url: receiver.url(`/${method}/account`),
    enabled_events: ['*'],
  });
  t.is(endpoint.status, 201);
  const linkId = await pay(merchant, receiver.url(`/${method}/link`));
  const linkEventId = `evt_payment_link_${linkId}_paid`;
  // The link's paid event delivered, then every delivery queue drained: what came is all that comes.
  await eventually(() => verifiedAt(receiver, `/${method}/account`, endpoint.secret).some((e) => e.id === linkEventId));
  await untilQueuesIdle();
  const received = verifiedAt(receiver, `/${method}/account`, endpoint.secret);
  const ids = received.map((e) => e.id);
  t.is(ids.length, new Set(ids).size, 'each event once');

  const link = (await callJson(app, 'GET', `/api/v1/payment-links/${linkId}/`, as())).body;
  const saleId = link.sale_id as number;
  t.true(Number.isInteger(saleId), 'the link names its sale');
  const of = (kind: string, id: number) => received.filter((e) => e.object.kind === kind && e.object.id === String(id));

  // The sale's event: the one a sales-API sale of this method emits on reaching CONFIRMED, with the sale.
  t.deepEqual(
    of('sale', saleId).map((e) => e.type),
    [saleEvent],
    "the sale's events",
  );
  const sale = (await callJson(app, 'GET', `/api/v1/online/sales/${saleId}/`, as())).body.data;
  t.like(sale, { id: saleId, sale_status: 'CONFIRMED', payment_method: method, value: link.value });
  t.like(of('sale', saleId)[0]?.data, { id: saleId, sale_status: 'CONFIRMED', payment_method: method });

  // payment_link.paid names the sale, and says how it was paid.
  const linkEvents = of('payment_link', linkId);
  t.deepEqual(
    linkEvents.map((e) => e.type),
    ['payment_link.paid'],
  );
  const [paid] = linkEvents;
  t.like(paid.data, { id: linkId, status: 2, sale_id: saleId, payment: { method, total: link.value } });

  // The link's own webhook tells the same payment_link.paid (its envelope adds its per-link sequence).
  const hooks = receiver
    .at(`/${method}/link`)
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.type === 'payment_link.paid');
  t.is(hooks.length, 1, "the link webhook's paid event");
  const { sequence, ...linkWebhookData } = hooks[0].data;
  t.is(sequence, 1);
  t.deepEqual(linkWebhookData, paid.data, 'the same payment_link.paid on both');
});

test('a link paid by card: sale.captured, then payment_link.paid naming the sale', tellsOneStory, 'card');
test('a link paid by PIX: pix.paid, then payment_link.paid naming the sale', tellsOneStory, 'pix');

/**
 * A card link paid, its sale and paid link written, and then its account events taken away: what the store
 * holds when a pay died before recording them (or their recording failed).
 */
async function paidLinkWithoutItsEvents() {
  const merchant = await newMerchant();
  const linkId = await paidByCard(merchant, receiver.url('/unused'));
  const link = (await PaymentLinkModel.findById(linkId).lean())!;
  const ids = [`evt_sale_${link.saleId}_captured`, `evt_payment_link_${linkId}_paid`];
  const recorded = await AccountEventModel.countDocuments({ _id: mongoose.trusted({ $in: ids }) });
  await AccountEventModel.deleteMany({ _id: mongoose.trusted({ $in: ids }) });
  return { link, ids, recorded };
}

/** The link's and its sale's account events, by type, with the data of the paid one. */
async function eventsOf(link: PaymentLink) {
  const events = await AccountEventModel.find({
    objectKey: mongoose.trusted({ $in: [`sale_${link.saleId}`, `payment_link_${link._id}`] }),
  }).lean();
  return { types: events.map((e) => e.type).sort(), paid: events.find((e) => e.type === 'payment_link.paid') };
}

// Serial: the sweep settles every stale claim of this file's database.
test.serial(
  'a pay that died after writing the sale and the link, before their events: the claim owes both, the sweep ' +
    'records each once',
  async (t) => {
    const { link, recorded } = await paidLinkWithoutItsEvents();
    t.is(recorded, 2, 'the pay recorded both');
    // Back to what the pay had written when it died: the claim still charging, its lease over.
    await PaymentClaimModel.collection.updateOne(
      { _id: link._id as never },
      { $set: { state: 'charging', payment: null, paymentDate: null, notifiedAt: null, startedAt: new Date(0) } },
    );
    t.true((await settleStalePayments()) >= 1);
    const { types, paid } = await eventsOf(link);
    t.deepEqual(types, ['payment_link.paid', 'sale.captured']);
    t.like(paid?.data, { id: link._id, sale_id: link.saleId });
    t.like((await PaymentClaimModel.findById(link._id).lean())!, { state: 'paid', eventOwed: false });
    await settleStalePayments();
    t.deepEqual((await eventsOf(link)).types, types, 'a second sweep records nothing more');
  },
);

test.serial(
  "a paid claim whose events are owed (their recording failed): the sweep records the sale's and the link's",
  async (t) => {
    const { link } = await paidLinkWithoutItsEvents();
    await PaymentClaimModel.collection.updateOne(
      { _id: link._id as never },
      { $set: { notifiedAt: null, eventOwed: true, startedAt: new Date(0) } },
    );
    t.true((await settleStalePayments()) >= 1);
    const { types, paid } = await eventsOf(link);
    t.deepEqual(types, ['payment_link.paid', 'sale.captured']);
    t.like(paid?.data, { id: link._id, sale_id: link.saleId, payment: { method: 'card' } });
    t.like((await PaymentClaimModel.findById(link._id).lean())!, { eventOwed: false });
  },
);
