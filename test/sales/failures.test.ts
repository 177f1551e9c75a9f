import '../helpers/env';
import net from 'node:net';
import test from 'ava';
import { getConfig } from '../../config';
import { eventually } from '../helpers/processes';
import { withAcquirerRefusing } from '../helpers/acquirer';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import {
  PaymentModel,
  SaleIdempotencyModel,
  SaleTransitionModel,
  SavedCardModel,
  type Payment,
} from '../../src/payments/model';
import mongoose from 'mongoose';
import {
  captureSale as captureAtAcquirer,
  createCardSale,
  getSale,
  getSaleByOrderId,
  PAYMENT_NOTIFICATION_PATH,
} from '../../src/acquirer/client';
import { reconcileSale } from '../../src/sales';
import { sweepUnsettledSales } from '../../src/payments/sweeps';
import { getQueue } from '../../src/queue/queues';
import { RECONCILE_QUEUE, reconcileEpisodeJobId } from '../../jobs/reconcile-sale';
import { nextId } from '../../src/db/ids';
import { CARDS, cardSale, pixSale, sandboxPost, PRE_CAPTURE, untilFaultTaken, useSalesEnv } from './helpers';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';

const env = useSalesEnv();
const preCapture = (body: unknown, headers: Record<string, string> = {}, who: TestMerchant = env.merchant) =>
  callJson(env.app, 'POST', PRE_CAPTURE, bearer(who.merchantToken, headers), body);
const capture = (id: number, body?: { value: number }) =>
  callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/capture/`, bearer(env.merchant.merchantToken), body);
const cancel = (id: number) =>
  callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/cancel-capture/`, bearer(env.merchant.merchantToken));
const stored = (id: number) => PaymentModel.findById(id).lean();
const settled = async (id: number): Promise<Payment> =>
  (await eventually(async () => {
    const sale = await stored(id);
    return sale && !sale.reconciliation && sale.status !== 'PROCESSING' ? sale : null;
  }, 30_000))!;

async function fault(body: Record<string, unknown>) {
  const res = await sandboxPost(env, '/sandbox/faults', body);
  if (res.status !== 201) throw new Error(`fault not set: ${JSON.stringify(res.body)}`);
}

test.serial('a refused connection is 502 with the sale failed and nothing charged', async (t) => {
  const res = await withAcquirerRefusing(() => preCapture(cardSale()));
  t.is(res.status, 502);
  t.is(res.body.sale_status, 'FAILED');
  t.false(res.body.reconciling);
  const sale = await stored(res.body.sale_id);
  t.is(sale?.status, 'FAILED');
  t.is(sale?.reconciliation, null);
});

test('an acquirer 500 is 502; reconciliation finds no sale and records it failed', async (t) => {
  const res = await preCapture(cardSale({ value: 990500 }));
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  const sale = await settled(res.body.sale_id);
  t.is(sale.status, 'FAILED');
  t.is(await getSaleByOrderId(sale.merchantOrderId), null);
});

test('a timeout after sending is 502, then reconciliation settles the true state', async (t) => {
  const res = await preCapture(cardSale({ value: 990408 }));
  t.is(res.status, 502);
  t.is(res.body.sale_status, 'PROCESSING');
  t.true(res.body.reconciling);
  const sale = await settled(res.body.sale_id);
  t.is(sale.status, 'PRE_CAPTURED');
  t.truthy(sale.acquirer.paymentId);
  // The merchant sees the settled outcome.
  const read = await callJson(env.app, 'GET', `/api/v1/online/sales/${sale._id}/`, bearer(env.merchant.merchantToken));
  t.is(read.body.data.sale_status, 'PRE_CAPTURED');
  t.false(read.body.data.reconciling);
  t.true(read.body.data.approved);
  // Settled for real: the merchant can capture it.
  const captured = await capture(sale._id);
  t.is(captured.status, 200);
  t.is(captured.body.data.sale_status, 'CONFIRMED');
});

test('a reset connection after sending is 502, then reconciliation settles the true state', async (t) => {
  const res = await preCapture(cardSale({ value: 990104 }));
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  const sale = await settled(res.body.sale_id);
  t.is(sale.status, 'PRE_CAPTURED');
});

test('a timed-out pix creation settles as pending with its code', async (t) => {
  const res = await preCapture(pixSale({ value: 990408 }));
  t.is(res.status, 502);
  const sale = await settled(res.body.sale_id);
  t.is(sale.status, 'PENDING');
  t.regex(sale.pix?.qrCode ?? '', /^000201/);
});

test('a capture the acquirer never received leaves the sale pre-captured and capturable', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  await fault({ mode: 'hang', operation: 'capture', paymentId: sale.acquirer.payment_id });
  const res = await capture(sale.id);
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  t.is(res.body.sale_status, 'PRE_CAPTURED');
  const during = await capture(sale.id);
  t.true(during.status === 409 || during.status === 200, `got ${during.status}`);
  const after = await settled(sale.id);
  t.is(after.status, 'PRE_CAPTURED');
  t.is(await SaleTransitionModel.countDocuments({ _id: `${sale.id}:PRE_CAPTURED` }), 0);
  const retried = await capture(sale.id);
  t.is(retried.status, 200);
  t.is(retried.body.data.sale_status, 'CONFIRMED');
});

test('a payment notice arriving during a capture call waits for it; the capture answers 200 once', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  await fault({ mode: 'latency', latencyMs: 1500, operation: 'capture', paymentId: sale.acquirer.payment_id });
  const capturing = capture(sale.id);
  // The capture has reached the sandbox (it took the fault) and is held there for 1.5 s.
  await untilFaultTaken(env, sale.acquirer.payment_id);
  // The acquirer's notice about this sale, applied while our capture call is still running.
  const notified = await sandboxPost(env, `/sandbox/notify/${sale.acquirer.payment_id}`, {
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
  t.is(notified.body.notification.status, 200);
  const captured = await capturing;
  t.is(captured.status, 200);
  t.is(captured.body.data.sale_status, 'CONFIRMED');
  const after = await settled(sale.id);
  t.is(after.status, 'CONFIRMED');
});

test('a capture whose answer was lost is settled as confirmed', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  await fault({ mode: 'lose', operation: 'capture', paymentId: sale.acquirer.payment_id });
  const res = await capture(sale.id);
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  const after = await settled(sale.id);
  t.is(after.status, 'CONFIRMED');
  t.is((await getSale(sale.acquirer.payment_id))?.status, 2);
});

test('a partial capture whose answer was lost is settled with what the acquirer captured', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  await fault({ mode: 'lose', operation: 'capture', paymentId: sale.acquirer.payment_id });
  const res = await capture(sale.id, { value: 1234 });
  t.is(res.status, 502);
  t.true(res.body.reconciling);
  const after = await settled(sale.id);
  t.is(after.status, 'CONFIRMED');
  t.is(after.capturedValue, 1234);
  t.is((await getSale(sale.acquirer.payment_id))?.capturedAmountCents, 1234);
});

test('an acquirer error on capture or cancel is 502 and the sale keeps its state', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  await fault({ mode: 'error', operation: 'void', paymentId: sale.acquirer.payment_id });
  const res = await cancel(sale.id);
  t.is(res.status, 502);
  // A 500 may have been acted on: reconciliation confirms nothing happened.
  const after = await settled(sale.id);
  t.is(after.status, 'PRE_CAPTURED');
  await fault({ mode: 'drop', operation: 'capture', paymentId: sale.acquirer.payment_id });
  t.is((await capture(sale.id)).status, 502);
  t.is((await settled(sale.id)).status, 'PRE_CAPTURED');
  t.is((await cancel(sale.id)).body.data.sale_status, 'CANCELLED');
});

test('concurrent captures capture once', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  // Slow captures widen the window in which the others arrive.
  await fault({ mode: 'latency', latencyMs: 400, operation: 'capture', paymentId: sale.acquirer.payment_id, count: 5 });
  const results = await Promise.all(Array.from({ length: 5 }, () => capture(sale.id)));
  const statuses = results.map((r) => r.status).sort();
  t.is(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
  t.true(
    statuses.every((s) => s === 200 || s === 409 || s === 400),
    statuses.join(','),
  );
  t.is((await stored(sale.id))?.status, 'CONFIRMED');
});

test('the same idempotency key and body replays the first answer without a second authorization', async (t) => {
  const owner = await newMerchant();
  const body = cardSale();
  const key = { 'idempotency-key': `order-${Date.now()}` };
  const first = await preCapture(body, key, owner);
  t.is(first.status, 200);
  const second = await preCapture(body, key, owner);
  t.is(second.status, 200);
  t.is(second.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(second.body, first.body);
  t.is(await PaymentModel.countDocuments({ merchantId: owner.merchantId }), 1);
  const different = await preCapture({ ...body, value: 100 }, key, owner);
  t.is(different.status, 422);
  // Keys are per env.merchant.
  const elsewhere = await preCapture(body, key);
  t.is(elsewhere.status, 200);
  t.not(elsewhere.body.data.id, first.body.data.id);
});

test('a retry that encrypts the same card again replays; another card or expiry with the key is 422', async (t) => {
  const owner = await newMerchant();
  const body = cardSale();
  const key = { 'idempotency-key': `re-encrypted-${Date.now()}` };
  const first = await preCapture(body, key, owner);
  t.is(first.status, 200);
  // PKCS#1 v1.5 padding is random: the same card never encrypts to the same text twice.
  const again = { ...body, encrypted_card: encryptedTestCard() };
  t.not(again.encrypted_card, body.encrypted_card);
  const retry = await preCapture(again, key, owner);
  t.is(retry.status, 200);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(retry.body, first.body);
  t.is(await PaymentModel.countDocuments({ merchantId: owner.merchantId }), 1, 'authorized once');
  t.is(
    (await preCapture({ ...body, encrypted_card: encryptedTestCard({ number: CARDS.luhnApproved }) }, key, owner))
      .status,
    422,
  );
  const otherExpiry = encryptedTestCard({ number: CARDS.approved, expYear: new Date().getUTCFullYear() + 4 });
  t.is((await preCapture({ ...body, encrypted_card: otherExpiry }, key, owner)).status, 422);
  const record = await SaleIdempotencyModel.findById(`${owner.merchantId}:${key['idempotency-key']}`).lean();
  t.false(JSON.stringify(record).includes(CARDS.approved), 'the card number is not stored');
});

test('a key used again after its 24 hours replays the new sale, not the one its earlier use made', async (t) => {
  const owner = await newMerchant();
  const key = { 'idempotency-key': `reused-${Date.now()}` };
  const old = await preCapture(cardSale({ value: 1200 }), key, owner);
  t.is(old.status, 200);
  // A day and an hour later.
  const dayAgo = new Date(Date.now() - 25 * 3600_000);
  await SaleIdempotencyModel.collection.updateOne(
    { _id: `${owner.merchantId}:${key['idempotency-key']}` as never },
    { $set: { createdAt: dayAgo } },
  );
  await PaymentModel.collection.updateOne({ _id: old.body.data.id }, { $set: { createdAt: dayAgo } });
  const body = cardSale({ value: 3400 });
  const fresh = await preCapture(body, key, owner);
  t.is(fresh.status, 200);
  t.not(fresh.body.data.id, old.body.data.id);
  const replay = await preCapture(body, key, owner);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body, fresh.body);
});

test('the same idempotency key sent at once authorizes once', async (t) => {
  const owner = await newMerchant();
  const body = cardSale();
  const key = { 'idempotency-key': `burst-${Date.now()}` };
  const results = await Promise.all(Array.from({ length: 5 }, () => preCapture(body, key, owner)));
  const statuses = results.map((r) => r.status);
  t.true(
    statuses.every((s) => s === 200 || s === 409),
    statuses.join(','),
  );
  t.true(statuses.includes(200));
  t.is(await PaymentModel.countDocuments({ merchantId: owner.merchantId }), 1);
  const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.data.id));
  t.is(ids.size, 1);
});

test('a denial is replayed too, and a key whose request reached no acquirer can be used again', async (t) => {
  const owner = await newMerchant();
  const denied = cardSale({}, '4000000000000002');
  const key = { 'idempotency-key': `deny-${Date.now()}` };
  const first = await preCapture(denied, key, owner);
  t.false(first.body.data.approved);
  const again = await preCapture(denied, key, owner);
  t.is(again.body.data.id, first.body.data.id);
  // Bad input stores no answer: the key is still free.
  const invalidKey = { 'idempotency-key': `bad-${Date.now()}` };
  t.is((await preCapture({ ...cardSale(), encrypted_card: 'bm90' }, invalidKey, owner)).status, 400);
  t.is((await preCapture(cardSale(), invalidKey, owner)).status, 200);
});

test('a timed-out request with an idempotency key answers 409 until settled, then the true answer', async (t) => {
  const owner = await newMerchant();
  const body = cardSale({ value: 990408 });
  const key = { 'idempotency-key': `slow-${Date.now()}` };
  const first = await preCapture(body, key, owner);
  t.is(first.status, 502);
  await settled(first.body.sale_id);
  const replay = await eventually(async () => {
    const res = await preCapture(body, key, owner);
    return res.status === 200 ? res : null;
  }, 30_000);
  t.is(replay!.body.data.id, first.body.sale_id);
  t.is(replay!.body.data.sale_status, 'PRE_CAPTURED');
  t.is(await PaymentModel.countDocuments({ merchantId: owner.merchantId }), 1);
});

// Serial: its fault catches the next authorization sent to the sandbox, whoever sends it.
test.serial(
  'a timed-out authorization the acquirer has not made yet is not failed early: made late, it is recorded',
  async (t) => {
    await fault({ mode: 'hang', operation: 'create' });
    const res = await preCapture(cardSale());
    t.is(res.status, 502);
    t.true(res.body.reconciling);
    const saleId = res.body.sale_id as number;
    // The reconciliation job has asked (after 1 s) and found nothing: the call might still be running there.
    const since = (await stored(saleId))!.reconciliation!.since;
    const job = reconcileEpisodeJobId(saleId, 'PROCESSING', new Date(since));
    await eventually(async () => ((await getQueue(RECONCILE_QUEUE).getJob(job))?.attemptsMade ?? 0) >= 1, 30_000);
    const waiting = (await stored(saleId))!;
    t.is(waiting.status, 'PROCESSING', 'not FAILED while the call may still be running at the acquirer');
    t.truthy(waiting.reconciliation?.inFlight);
    // The acquirer finishes the authorization late.
    const late = await createCardSale({
      idempotencyKey: `${waiting.merchantOrderId}-late`,
      merchantOrderId: waiting.merchantOrderId,
      amountCents: waiting.amountCents,
      installments: 1,
      capture: false,
      customer: { name: 'Maria Silva' },
      card: {
        number: CARDS.approved,
        holder: 'MARIA SILVA',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 3,
        cvv: '123',
        brand: 'Visa',
      },
    });
    const after = await settled(saleId);
    t.is(after.status, 'PRE_CAPTURED');
    t.is(after.acquirer.paymentId, late.paymentId);
  },
);

test.serial(
  'a timed-out authorization the acquirer never made is failed once no call could still be running',
  async (t) => {
    await fault({ mode: 'hang', operation: 'create' });
    const res = await preCapture(cardSale());
    t.is(res.status, 502);
    const saleId = res.body.sale_id as number;
    t.is((await stored(saleId))!.status, 'PROCESSING');
    // As if the in-flight window (2 x ACQUIRER_TIMEOUT_MS + 60 s) had passed.
    await PaymentModel.collection.updateOne(
      { _id: saleId as never },
      { $set: { createdAt: new Date(Date.now() - 10 * 60_000) } },
    );
    const after = await settled(saleId);
    t.is(after.status, 'FAILED');
  },
);

// Serial: it adds a unique index to this file's saved cards, so a recording write fails on purpose.
test.serial(
  'a key whose sale was authorized but not recorded is never freed: the retry gets the first sale, not a second charge',
  async (t) => {
    const owner = await newMerchant();
    // Recording the approved sale fails after the acquirer acted: the saved card's insert hits a duplicate.
    await SavedCardModel.collection.createIndex(
      { merchantId: 1, brand: 1 },
      { unique: true, name: 'test_one_card_per_merchant' },
    );
    await SavedCardModel.collection.insertOne({
      _id: `existing-${owner.merchantId}` as never,
      merchantId: owner.merchantId,
      brand: 'Visa',
      bin: '400000',
      last4: '0010',
    });
    try {
      const body = cardSale({ save_card: true });
      const key = { 'idempotency-key': `unrecorded-${Date.now()}` };
      const first = await preCapture(body, key, owner);
      t.true(first.status >= 500, `got ${first.status}`);
      const sale = (await PaymentModel.findOne({ merchantId: owner.merchantId }).lean())!;
      t.truthy(await getSaleByOrderId(sale.merchantOrderId), 'the acquirer authorized it');
      const during = await preCapture(body, key, owner);
      t.true(during.status === 409 || during.status === 200, `got ${during.status}`);
      const replay = await eventually(async () => {
        const res = await preCapture(body, key, owner);
        return res.status === 200 ? res : null;
      }, 30_000);
      t.is(replay!.body.data.id, sale._id, 'the first sale, replayed');
      t.is(replay!.body.data.sale_status, 'PRE_CAPTURED');
      t.is(await PaymentModel.countDocuments({ merchantId: owner.merchantId }), 1, 'no second authorization');
    } finally {
      await SavedCardModel.collection.dropIndex('test_one_card_per_merchant');
    }
  },
);

// Serial: its sweep runs with a clock an hour ahead and would settle the other tests' sales early.
test.serial(
  'a capture whose process died mid-call is released by the stuck-reconciliation sweep; a dead settlement ' +
    'claim is taken over',
  async (t) => {
    const sale = (await preCapture(cardSale())).body.data;
    // What a web process killed during the acquirer call leaves: the claim and the in-flight flag.
    await SaleTransitionModel.create({
      _id: `${sale.id}:PRE_CAPTURED`,
      saleId: sale.id,
      fromStatus: 'PRE_CAPTURED',
      operation: 'capture',
    });
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    const inFlight = {
      operation: 'capture',
      fromStatus: 'PRE_CAPTURED',
      since: elevenMinutesAgo,
      reason: 'acquirer call in flight',
      inFlight: true,
    } as const;
    await PaymentModel.updateOne({ _id: sale.id }, { $set: { reconciliation: inFlight, reconciling: true } });
    const blocked = await capture(sale.id);
    t.is(blocked.status, 409);
    await sweepUnsettledSales(new Date());
    const after = await settled(sale.id);
    t.is(after.status, 'PRE_CAPTURED', 'the acquirer never got the capture');
    t.is(await SaleTransitionModel.countDocuments({ _id: `${sale.id}:PRE_CAPTURED` }), 0);
    t.is((await capture(sale.id)).body.data?.sale_status, 'CONFIRMED');

    const other = (await preCapture(cardSale())).body.data;
    await SaleTransitionModel.collection.insertOne({
      _id: `${other.id}:PRE_CAPTURED` as never,
      saleId: other.id,
      fromStatus: 'PRE_CAPTURED',
      operation: 'settle',
      createdAt: new Date(Date.now() - 3 * 60_000),
    });
    t.is(
      (await capture(other.id)).body.data?.sale_status,
      'CONFIRMED',
      'a settlement claim past its lease does not block a capture',
    );
  },
);

test('a capture claim whose process died before marking the sale is reconciled once stale', async (t) => {
  const claimOnly = async (createdAt: Date) => {
    const sale = (await preCapture(cardSale())).body.data;
    // What a web process killed between the claim and the in-flight mark leaves: the claim alone.
    const claim = {
      _id: `${sale.id}:PRE_CAPTURED` as never,
      saleId: sale.id,
      fromStatus: 'PRE_CAPTURED',
      operation: 'capture',
      createdAt,
    };
    await SaleTransitionModel.collection.insertOne(claim);
    return sale;
  };
  const recent = await claimOnly(new Date());
  t.is((await capture(recent.id)).status, 409);
  t.is(
    (await stored(recent.id))?.reconciliation,
    null,
    'a recent claim may be a live process between its two writes: left alone',
  );

  const stale = await claimOnly(new Date(Date.now() - 11 * 60_000));
  t.is((await capture(stale.id)).status, 409);
  t.truthy((await stored(stale.id))?.reconciling, 'marked for reconciliation');
  const after = await settled(stale.id);
  t.is(after.status, 'PRE_CAPTURED', 'the acquirer never got the capture');
  t.is(await SaleTransitionModel.countDocuments({ _id: `${stale.id}:PRE_CAPTURED` }), 0);
  t.is((await capture(stale.id)).body.data?.sale_status, 'CONFIRMED');
});

/**
 * A sale the acquirer authorized while ours was left PROCESSING (the process that sent it died),
 * optionally already marked for reconciliation.
 */
async function saleLeftProcessing(tag: string, amountCents: number, reconciliation: Payment['reconciliation'] = null) {
  const orderId = `S9${Date.now()}${tag}`;
  const made = await createCardSale({
    idempotencyKey: orderId,
    merchantOrderId: orderId,
    amountCents,
    installments: 1,
    capture: false,
    customer: { name: 'Maria' },
    card: { number: CARDS.approved, holder: 'MARIA', expMonth: 12, expYear: 2040, cvv: '123', brand: 'Visa' },
  });
  const id = await nextId('online_sale');
  await PaymentModel.create({
    _id: id,
    merchantId: env.merchant.merchantId,
    merchantOrderId: orderId,
    paymentMethod: 'card',
    amountCents,
    installments: 1,
    status: 'PROCESSING',
    payer: { name: 'Maria' },
    card: { brand: 'Visa', bin: '400000', last4: '0010', fromToken: false },
    reconciliation,
    reconciling: Boolean(reconciliation),
  });
  return { id, made };
}

test.serial('a settlement claim left by a reconciliation that died does not block the sale for good', async (t) => {
  const { id, made } = await saleLeftProcessing('dead', 800, {
    operation: 'authorize',
    fromStatus: 'PROCESSING',
    since: new Date(),
    reason: 'test',
    inFlight: false,
  });
  // A reconciliation claimed the settlement, then its worker was killed before writing it.
  await SaleTransitionModel.create({
    _id: `${id}:PROCESSING`,
    saleId: id,
    fromStatus: 'PROCESSING',
    operation: 'settle',
  });
  t.regex(await reconcileSale(id), /authorization settled as PRE_CAPTURED/);
  const sale = (await stored(id))!;
  t.is(sale.status, 'PRE_CAPTURED');
  t.is(sale.acquirer.paymentId, made.paymentId);
  t.is(sale.reconciliation, null);
});

test.serial('a sale left processing by a crashed process is found by the sweep and settled', async (t) => {
  // What a web process that died right after sending the authorization leaves behind.
  const { id, made } = await saleLeftProcessing('crash', 700);
  await sweepUnsettledSales(new Date(Date.now() + 3600_000));
  const sale = await settled(id);
  t.is(sale.status, 'PRE_CAPTURED');
  t.is(sale.acquirer.paymentId, made.paymentId);
});

test('a replayed save_card answer does not repeat the card token, which is never stored in the clear', async (t) => {
  const owner = await newMerchant();
  const body = cardSale({ save_card: true });
  const key = { 'idempotency-key': `save-${Date.now()}` };
  const first = await preCapture(body, key, owner);
  const token = first.body.data.card_token;
  t.truthy(token);
  const replay = await preCapture(body, key, owner);
  t.is(replay.body.data.id, first.body.data.id);
  t.is(replay.body.data.card_token, undefined);
  t.true(replay.body.data.card_token_issued);
  const collections = ['online_sales', 'online_sale_idempotency', 'online_sale_cards'];
  for (const name of collections) {
    const docs = await mongoose.connection.db!.collection(name).find({}).toArray();
    t.false(JSON.stringify(docs).includes(token), name);
  }
});

test('an operation refused for a differing acquirer state is 502, reconciled to that state', async (t) => {
  const sale = (await preCapture(cardSale())).body.data;
  // Captured behind our back (another channel): our capture is refused as not capturable.
  await captureAtAcquirer(sale.acquirer.payment_id);
  const res = await capture(sale.id);
  t.is(res.status, 502);
  t.regex(res.body.detail, /308/);
  t.true(res.body.reconciling);
  const after = await settled(sale.id);
  t.is(after.status, 'CONFIRMED');
});

test('a key left in progress by a crashed process that made no sale is freed after the timeout window', async (t) => {
  const owner = await newMerchant();
  const stale = `crashed-${Date.now()}`;
  const fresh = `running-${Date.now()}`;
  await SaleIdempotencyModel.create({
    _id: `${owner.merchantId}:${stale}`,
    merchantId: owner.merchantId,
    bodyHash: 'x',
    state: 'in_progress',
    createdAt: new Date(Date.now() - 3600_000),
  });
  await SaleIdempotencyModel.create({
    _id: `${owner.merchantId}:${fresh}`,
    merchantId: owner.merchantId,
    bodyHash: 'x',
    state: 'in_progress',
    createdAt: new Date(),
  });
  // A recent record is still held (here its body differs, so 422).
  const running = await preCapture(cardSale(), { 'idempotency-key': fresh }, owner);
  t.is(running.status, 422);
  const freed = await preCapture(cardSale(), { 'idempotency-key': stale }, owner);
  t.is(freed.status, 200);
  t.true(freed.body.data.approved);
});

test.serial(
  'a key freed after a failed use, taken again by a request still running, is not freed by a third: one authorization',
  async (t) => {
    const owner = await newMerchant();
    const body = cardSale();
    const key = { 'idempotency-key': `reuse-${Date.now()}` };
    const recordId = `${owner.merchantId}:${key['idempotency-key']}`;
    const config = getConfig().acquirer;
    const original = config.baseUrl;
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    config.baseUrl = `http://127.0.0.1:${port}`;
    let failed: Awaited<ReturnType<typeof preCapture>>;
    try {
      failed = await preCapture(body, key, owner);
    } finally {
      config.baseUrl = original;
    }
    t.is(failed.status, 502);
    t.is(await SaleIdempotencyModel.findById(recordId).lean(), null, 'nothing was charged: the key is free');
    // The merchant's retry took the key again and is still preparing its sale (no sale yet):
    const firstSale = (await stored(failed.body.sale_id))!;
    const retryStarted = new Date();
    await SaleIdempotencyModel.create({
      _id: recordId,
      merchantId: owner.merchantId,
      bodyHash: firstSale.idempotencyBodyHash,
      state: 'in_progress',
      createdAt: retryStarted,
    });
    // A third request with the key must not take the failed first use's sale for the retry's and free its record.
    const third = await preCapture(body, key, owner);
    t.is(third.status, 409);
    t.like(await SaleIdempotencyModel.findById(recordId).lean(), { state: 'in_progress', createdAt: retryStarted });
    t.is(
      await PaymentModel.countDocuments({ idempotencyRecordId: recordId }),
      1,
      'only the failed first use made a sale',
    );
  },
);
