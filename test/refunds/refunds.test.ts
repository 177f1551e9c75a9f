import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { AcquirerRejectedError, getSale, voidSale } from '../../src/acquirer/client';
import { PaymentModel } from '../../src/payments/model';
import { MerchantModel } from '../../src/merchants/model';
import { RefundModel } from '../../src/payments/refund-model';
import { sendPendingRefunds } from '../../src/refunds';
import { admit } from '../../src/refunds/admission';
import { nextId } from '../../src/db/ids';
import { startWorker } from '../../src/queue/queues';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { cardSale, CARDS, PRE_CAPTURE, pixSale, sandboxPost, useSalesEnv } from '../sales/helpers';

const env = useSalesEnv();
test.serial.before(() => {
  startWorker(REFUNDS_QUEUE, processSendRefunds);
});

const token = (extra: Record<string, string> = {}) => bearer(env.merchant.merchantToken, extra);
const refundsOf = (saleId: number) => `/api/v1/online/sales/${saleId}/refunds/`;
const refund = (saleId: number, body?: unknown, headers: Record<string, string> = {}) =>
  callJson(env.app, 'POST', refundsOf(saleId), token(headers), body);
const readSale = async (id: number) =>
  (await callJson(env.app, 'GET', `/api/v1/online/sales/${id}/`, token())).body.data;
const voidedAtAcquirer = async (paymentId: string) => (await getSale(paymentId))!.voidedAmountCents;
const sandboxVoids = async () => (await callJson(env.sandbox, 'GET', '/sandbox/stats')).body.voids as number;

/** A card sale of `value` cents, captured whole. */
async function capturedSale(value = 10000) {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({ value, installments: 1 }))).body.data;
  const captured = await callJson(env.app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, token());
  if (captured.status !== 200) throw new Error(`capture answered ${captured.status}`);
  return captured.body.data;
}

/** The refund once it is no longer pending (the worker's turns of the sale's lane). */
async function settled(refundId: number, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const read = await callJson(env.app, 'GET', `/api/v1/refunds/${refundId}/`, token());
      return read.body.data.status !== 'pending' && read.body.data;
    },
    timeoutMs,
    250,
  );
}

test.serial(
  'partial refunds add up to the captured value, 5 s apart, and the acquirer voided exactly that',
  async (t) => {
    const sale = await capturedSale(10000);
    const first = await refund(sale.id, { value: 3000, reason: 'item_returned', metadata: { item: 'sku-1' } });
    t.is(first.status, 201);
    t.like(first.body.data, { value: 3000, status: 'succeeded', reason: 'item_returned', metadata: { item: 'sku-1' } });
    t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 3000, captured_value: 10000 });
    // The second waits its turn: the acquirer wants 5 s between cancels on one sale.
    const rest = await refund(sale.id, {});
    t.is(rest.status, 202);
    t.like(rest.body.data, { value: 7000, status: 'pending' });
    const done = await settled(rest.body.data.id);
    t.is(done.status, 'succeeded');
    t.true(new Date(done.settled_at).getTime() - new Date(first.body.data.settled_at).getTime() >= 5000);
    t.like(await readSale(sale.id), { sale_status: 'REFUNDED', refunded_value: 10000 });
    t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 10000);
    const list = await callJson(env.app, 'GET', refundsOf(sale.id), token());
    t.deepEqual(
      list.body.data.map((r: { value: number; status: string }) => [r.value, r.status]),
      [
        [3000, 'succeeded'],
        [7000, 'succeeded'],
      ],
    );
    const more = await refund(sale.id, { value: 1 });
    t.is(more.status, 422);
  },
);

test.serial('20 simultaneous refunds of 60% each: exactly one is accepted', async (t) => {
  const sale = await capturedSale(10000);
  const answers = await Promise.all(Array.from({ length: 20 }, () => refund(sale.id, { value: 6000 })));
  const accepted = answers.filter((res) => res.status === 201 || res.status === 202);
  t.is(accepted.length, 1, JSON.stringify(answers.map((res) => res.status)));
  t.true(answers.filter((res) => !accepted.includes(res)).every((res) => res.status === 422));
  t.is((await settled(accepted[0].body.data.id)).status, 'succeeded');
  t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 6000);
  t.is(await RefundModel.countDocuments({ saleId: sale.id }), 1);
});

test.serial('an Idempotency-Key replays the first answer; another body with it is 422', async (t) => {
  const sale = await capturedSale(10000);
  const key = { 'Idempotency-Key': `refund-${sale.id}` };
  const first = await refund(sale.id, { value: 2500 }, key);
  t.is(first.status, 201);
  const again = await refund(sale.id, { value: 2500 }, key);
  t.is(again.status, 201);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(again.body, first.body);
  const other = await refund(sale.id, { value: 2000 }, key);
  t.is(other.status, 422);
  t.is(await RefundModel.countDocuments({ saleId: sale.id }), 1);
  t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 2500);
});

test.serial('low balance and too late end as failed refunds with the reason, and the money stays', async (t) => {
  for (const [code, reason] of [
    ['43', /balance/],
    ['76', /balance/],
    ['40', /too late/i],
  ] as const) {
    const sale = await capturedSale(10000);
    await sandboxPost(env, '/sandbox/faults', { mode: 'refuse', code, operation: 'void' });
    const res = await refund(sale.id, { value: 1000 });
    t.is(res.status, 201, code);
    t.like(res.body.data, { status: 'failed', acquirer_code: code });
    t.regex(res.body.data.failure_reason, reason);
    t.like(await readSale(sale.id), { sale_status: 'CONFIRMED', refunded_value: 0 });
    t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 0);
  }
});

test.serial('a void whose answer is lost is settled from VoidedAmount, never sent twice', async (t) => {
  const sale = await capturedSale(10000);
  const voidsBefore = await sandboxVoids();
  await sandboxPost(env, '/sandbox/faults', { mode: 'lose', operation: 'void' });
  const res = await refund(sale.id, { value: 4000 });
  t.is(res.status, 202);
  t.is(res.body.data.status, 'pending');
  t.is((await settled(res.body.data.id)).status, 'succeeded');
  t.is(await sandboxVoids(), voidsBefore + 1);
  t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 4000);
  t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 4000 });
});

for (const mode of ['drop', 'hang'])
  test.serial(
    `a void ${mode === 'drop' ? 'cut' : 'left hanging'} is sent again only once no call can still run`,
    async (t) => {
      const sale = await capturedSale(10000);
      await sandboxPost(env, '/sandbox/faults', { mode, operation: 'void', paymentId: sale.acquirer.payment_id });
      const res = await refund(sale.id, { value: 5000 });
      t.is(res.status, 202);
      // A turn now finds VoidedAmount unchanged, but the cut call might still arrive: nothing is sent.
      await sendPendingRefunds(sale.id);
      t.is((await RefundModel.findById(res.body.data.id).lean())!.status, 'pending');
      t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 0);
      // Once that time is over (the send recorded long ago), the refund is sent again, once.
      await RefundModel.updateOne(
        { _id: res.body.data.id },
        { $set: { 'sent.at': new Date(Date.now() - 3_600_000), attemptedAt: new Date(Date.now() - 3_600_000) } },
      );
      await sendPendingRefunds(sale.id);
      t.is((await settled(res.body.data.id)).status, 'succeeded');
      t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 5000);
    },
  );

test.serial('hostile values are a 400 naming value, and nothing is refunded', async (t) => {
  const sale = await capturedSale(10000);
  for (const value of [-1, 0, 1e12, 12.5, '100', null]) {
    const res = await refund(sale.id, { value });
    t.deepEqual([res.status, Object.keys(res.body)], [400, ['value']], JSON.stringify(value));
  }
  t.deepEqual((await refund(sale.id, { reason: 'because' })).status, 400);
  t.deepEqual((await refund(sale.id, { metadata: { a: 1 } })).status, 400);
  t.is((await refund(sale.id, { value: 10001 })).status, 422);
  t.is(await RefundModel.countDocuments({ saleId: sale.id }), 0);
});

test.serial("sales that cannot be refunded: a clear 4xx; another merchant's sale or refund is 404", async (t) => {
  const preCaptured = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale())).body.data;
  const denied = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({}, CARDS.denied05))).body.data;
  const pix = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), pixSale())).body.data;
  const cancelled = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale())).body.data;
  await callJson(env.app, 'PUT', `/api/v1/online/sales/${cancelled.id}/cancel-capture/`, token());
  for (const [sale, status] of [
    [preCaptured, /PRE_CAPTURED/],
    [denied, /DENIED/],
    [cancelled, /CANCELLED/],
    [pix, /PENDING/],
  ] as const) {
    const res = await refund(sale.id, {});
    t.is(res.status, 400);
    t.regex(res.body.detail, status);
  }
  const old = await capturedSale(10000);
  await PaymentModel.updateOne({ _id: old.id }, { $set: { capturedAt: new Date(Date.now() - 361 * 86_400_000) } });
  const late = await refund(old.id, {});
  t.is(late.status, 422);
  t.regex(late.body.detail, /360 days/);

  const mine = await capturedSale(10000);
  const made = await refund(mine.id, { value: 100 });
  const stranger = bearer((await newMerchant()).merchantToken);
  t.is((await callJson(env.app, 'POST', refundsOf(mine.id), stranger, {})).status, 404);
  t.is((await callJson(env.app, 'GET', refundsOf(mine.id), stranger)).status, 404);
  t.is((await callJson(env.app, 'GET', `/api/v1/refunds/${made.body.data.id}/`, stranger)).status, 404);
});

test.serial('a refund racing a cancel-capture: one of them reaches the acquirer, never both', async (t) => {
  await MerchantModel.updateOne({ _id: env.merchant.merchantId }, { $set: { 'settings.allowVoidOnConfirmed': true } });
  for (let round = 0; round < 4; round++) {
    const sale = await capturedSale(10000);
    const [cancel, refunded] = await Promise.all([
      callJson(env.app, 'PUT', `/api/v1/online/sales/${sale.id}/cancel-capture/`, token()),
      refund(sale.id, { value: 3000 }),
    ]);
    // Refused at once while the cancel-capture's void was in flight (409) or once it refunded everything (422).
    const refusedAtOnce = refunded.status === 409 || refunded.status === 422;
    const outcome = refusedAtOnce ? { status: 'failed' } : await settled(refunded.body.data.id);
    const voided = await voidedAtAcquirer(sale.acquirer.payment_id);
    if (cancel.status === 200) {
      t.is(outcome.status, 'failed');
      t.is(voided, 10000);
      t.like(await readSale(sale.id), { sale_status: 'REFUNDED', refunded_value: 10000 });
    } else {
      // 409 while the refund held the sale's transition; 400 once it had made the sale PARTIALLY_REFUNDED.
      t.true([400, 409].includes(cancel.status), String(cancel.status));
      t.is(outcome.status, 'succeeded');
      t.is(voided, 3000);
      t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 3000 });
    }
  }
});

test.serial(
  'the sandbox refuses a cancel within 5 s of the last one on a sale (code 99), and does nothing',
  async (t) => {
    const sale = await capturedSale(10000);
    const paymentId = sale.acquirer.payment_id;
    t.is((await voidSale(paymentId, { amountCents: 1000 })).status, 2);
    const refused = await t.throwsAsync(voidSale(paymentId, { amountCents: 1000 }), {
      instanceOf: AcquirerRejectedError,
    });
    t.true(refused!.hasCode(99));
    t.is(await voidedAtAcquirer(paymentId), 1000);
  },
);

test.serial(
  'a process that died after its void reached the acquirer: the next turn settles it, sending nothing',
  async (t) => {
    const sale = await capturedSale(10000);
    // What a dead process leaves: its refund pending with the send recorded, the void done at the acquirer.
    const sentAt = new Date();
    await voidSale(sale.acquirer.payment_id, { amountCents: 2000 });
    const id = await nextId('refunds');
    await RefundModel.create({
      _id: id,
      saleId: sale.id,
      merchantId: env.merchant.merchantId,
      slot: `${sale.id}:0`,
      valueCents: 2000,
      status: 'pending',
      sent: { at: sentAt, voidedBefore: 0, requestKey: 'died-mid-call' },
      attemptedAt: sentAt,
    });
    const voidsBefore = await sandboxVoids();
    await sendPendingRefunds(sale.id);
    t.is((await RefundModel.findById(id).lean())!.status, 'succeeded');
    t.is(await sandboxVoids(), voidsBefore);
    t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 2000);
    t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 2000 });
    // What is left is still what is left: 8000, not 10000.
    t.is((await refund(sale.id, { value: 8001 })).status, 422);
  },
);

test.serial(
  'two refunds pending in one turn: the second waits the spacing after the first, nothing sent early',
  async (t) => {
    const sale = await capturedSale(10000);
    const stored = (await PaymentModel.findById(sale.id).lean())!;
    // Admitted with no turn of their own (as two requests that found the lane busy leave them).
    await admit(stored, { value: 1000 }, null);
    await admit(stored, { value: 2000 }, null);
    const voidsBefore = await sandboxVoids();
    const turn = await sendPendingRefunds(sale.id);
    t.regex(turn, /waiting for the acquirer's spacing between cancels/);
    t.is(await sandboxVoids(), voidsBefore + 1, 'the second void was not sent within 5 s of the first');
    const refunds = await RefundModel.find({ saleId: sale.id }).sort({ createdAt: 1 }).lean();
    t.deepEqual(
      refunds.map((r) => [r.valueCents, r.status]),
      [
        [1000, 'succeeded'],
        [2000, 'pending'],
      ],
    );
    t.is((await settled(refunds[1]._id)).status, 'succeeded');
    t.is(await voidedAtAcquirer(sale.acquirer.payment_id), 3000);
  },
);
