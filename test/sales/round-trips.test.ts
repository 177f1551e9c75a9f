/**
 * Database round trips of the online-sales hot paths, counted (not timed) with the counters /metrics
 * serves. Each request goes through the real app in this process, credential check included (a
 * merchant token: one read). A change that adds a round trip fails here; one that removes one
 * updates the numbers on purpose.
 *
 * The id block claim (one insert into id_sequences per ID_BLOCK_SIZE sales) is shared by the sales
 * of a block: it is left out of the exact counts and bounded on its own.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { countDbCommands } from '../helpers/db-commands';
import { NOTIFICATION_SIGNATURE_HEADER, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { applyPaymentNotice, signNotice } from '../../src/sales';
import { cardSale, pixSale, sandboxPost, startSalesEnv, type SalesEnv } from './helpers';
import { callJson, send } from '../helpers/http';
import { PaymentModel } from '../../src/payments/model';
import { AccountEventModel } from '../../src/events/model';
import { recordEvent } from '../../src/events/recording';

let env: SalesEnv;
let merchant: TestMerchant;

const PRE = '/api/v1/online/sales/pre-capture/';
const CREDENTIAL = { 'merchant_tokens find': 1 };
/**
 * The account event of a sale's move (src/events): owed by the move's own write (no command), numbered from the
 * sale's eventSeq (no read of its last event), then the event's insert and the owed entry cleared on the sale
 * (src/events/outbox.ts).
 */
const EVENT = { 'account_events insert': 1, 'online_sales update': 1 };

test.before(async () => {
  // No workers: a job run by a worker of this process would add its commands to a count.
  env = await startSalesEnv({ workers: false });
  merchant = await newMerchant();
  // The first request of a process claims an id block (a sorted read and an insert).
  await callJson(env.app, 'POST', PRE, bearer(merchant.merchantToken), cardSale());
});
test.after.always(() => env?.close());

/** The commands `work` sends, by "collection command", without the id block claim (at most one). */
async function commandsOf<T>(
  t: ExecutionContext,
  work: () => Promise<T>,
): Promise<{ result: T; by: Record<string, number> }> {
  const { result, commands } = await countDbCommands(work);
  const by: Record<string, number> = {};
  for (const [key, count] of Object.entries(commands.by)) if (!key.startsWith('id_sequences ')) by[key] = count;
  t.true((commands.by['id_sequences insert'] ?? 0) <= 1, 'at most one id block claim');
  t.false(
    'id_sequences find' in commands.by,
    'no sorted read of the id blocks: this process claims the block after its last',
  );
  return { result, by };
}

const preCapture = (body: unknown, headers: Record<string, string> = {}) =>
  callJson(env.app, 'POST', PRE, bearer(merchant.merchantToken, headers), body);

test.serial('a card pre-capture: the credential, the sale before the acquirer call, its answer after', async (t) => {
  const { result, by } = await commandsOf(t, () => preCapture(cardSale()));
  t.is(result.body.data.sale_status, 'PRE_CAPTURED');
  t.deepEqual(by, { ...CREDENTIAL, 'online_sales insert': 1, 'online_sales findAndModify': 1, ...EVENT });
});

test.serial(
  'with an Idempotency-Key: the key record too, and the answer kept by the same write as the sale; a replay ' +
    'reads the sale',
  async (t) => {
    const body = cardSale();
    const key = { 'idempotency-key': `rt-${crypto.randomUUID()}` };
    const first = await commandsOf(t, () => preCapture(body, key));
    t.is(first.result.body.data.sale_status, 'PRE_CAPTURED');
    t.deepEqual(first.by, {
      ...CREDENTIAL,
      'online_sale_idempotency insert': 1,
      'online_sales insert': 1,
      'online_sales findAndModify': 1,
      ...EVENT,
    });

    const replay = await commandsOf(t, () => preCapture(body, key));
    t.is(replay.result.headers.get('idempotent-replayed'), 'true');
    t.deepEqual(replay.result.body, first.result.body);
    // The insert that finds the key taken, and the sale holding the answer and the body hash.
    t.deepEqual(replay.by, { ...CREDENTIAL, 'online_sale_idempotency insert': 1, 'online_sales find': 1 });

    const otherBody = await commandsOf(t, () => preCapture({ ...body, value: 1 }, key));
    t.is(otherBody.result.status, 422);
    t.deepEqual(otherBody.by, { ...CREDENTIAL, 'online_sale_idempotency insert': 1, 'online_sales find': 1 });
  },
);

test.serial('a PIX pre-capture costs what a card one does, without an event (PENDING is no event)', async (t) => {
  const { result, by } = await commandsOf(t, () => preCapture(pixSale()));
  t.is(result.body.data.sale_status, 'PENDING');
  t.deepEqual(by, { ...CREDENTIAL, 'online_sales insert': 1, 'online_sales findAndModify': 1 });
});

test.serial('a saved card token adds the read of its card', async (t) => {
  const saved = await preCapture(cardSale({ save_card: true }));
  const byToken = {
    payment_method: 'card',
    value: 500,
    card_token: saved.body.data.card_token,
    payer: { name: 'Maria' },
  };
  const { result, by } = await commandsOf(t, () => preCapture(byToken));
  t.is(result.body.data.sale_status, 'PRE_CAPTURED');
  t.deepEqual(by, {
    ...CREDENTIAL,
    'online_sale_cards find': 1,
    'online_sales insert': 1,
    'online_sales findAndModify': 1,
    ...EVENT,
  });
});

test.serial(
  'capture and cancel: the sale read, the transition claim, the in-flight mark before the call, the move after',
  async (t) => {
    const operation = {
      ...CREDENTIAL,
      'online_sales find': 1,
      'online_sale_transitions insert': 1,
      'online_sales findAndModify': 1,
      ...EVENT,
      // the in-flight mark before the call, and the owed event's entry cleared after the move
      'online_sales update': 2,
    };
    const toCapture = (await preCapture(cardSale())).body.data;
    const captured = await commandsOf(t, () =>
      callJson(env.app, 'PUT', `/api/v1/online/sales/${toCapture.id}/capture/`, bearer(merchant.merchantToken)),
    );
    t.is(captured.result.body.data.sale_status, 'CONFIRMED');
    t.deepEqual(captured.by, operation);

    const toCancel = (await preCapture(cardSale())).body.data;
    const cancelled = await commandsOf(t, () =>
      callJson(env.app, 'PUT', `/api/v1/online/sales/${toCancel.id}/cancel-capture/`, bearer(merchant.merchantToken)),
    );
    t.is(cancelled.result.body.data.sale_status, 'CANCELLED');
    t.deepEqual(cancelled.by, operation);
  },
);

test.serial(
  'a payment notice: one insert at intake; applied: the notice, the sale by its indexed PaymentId, the claim, ' +
    'the move, the notice',
  async (t) => {
    const sale = (await preCapture(pixSale())).body.data;
    t.is((await sandboxPost(env, `/sandbox/pix/${sale.acquirer.payment_id}/pay`, { notify: false })).status, 200);
    const raw = JSON.stringify({ PaymentId: sale.acquirer.payment_id, ChangeType: 1 });
    const headers = { 'content-type': 'application/json', [NOTIFICATION_SIGNATURE_HEADER]: signNotice(raw) };
    const intake = await commandsOf(t, () => send(env.app, 'POST', PAYMENT_NOTIFICATION_PATH, headers, raw));
    t.is(intake.result.status, 200);
    t.deepEqual(intake.by, { 'acquirer_payment_notices insert': 1 });

    const noticeId = crypto.createHash('sha256').update(raw).digest('hex');
    const applied = await commandsOf(t, () => applyPaymentNotice(noticeId));
    t.regex(applied.result, /PENDING -> CONFIRMED/);
    t.deepEqual(applied.by, {
      'acquirer_payment_notices find': 1,
      'online_sales find': 1,
      'online_sale_transitions insert': 1,
      'online_sales findAndModify': 1,
      ...EVENT,
      'acquirer_payment_notices update': 1,
    });
  },
);

test.serial(
  'a refund settled in its request: the sale, the lane and what it holds, the admission, the send record, ' +
    'the settlement, its three events in one insert',
  async (t) => {
    const auth = bearer(merchant.merchantToken);
    const captured = async () => {
      const made = (await preCapture(cardSale())).body.data;
      t.is((await callJson(env.app, 'PUT', `/api/v1/online/sales/${made.id}/capture/`, auth)).status, 200);
      return made;
    };
    // The first refund of a process claims its block of refund ids (a sorted read and an insert).
    const first = await captured();
    t.is(
      (await callJson(env.app, 'POST', `/api/v1/online/sales/${first.id}/refunds/`, auth, { value: 1 })).status,
      201,
    );
    const sale = await captured();
    const refunded = await commandsOf(t, () =>
      callJson(env.app, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, auth, { value: 100 }),
    );
    t.is(refunded.result.status, 201);
    t.is(refunded.result.body.data.status, 'succeeded');
    t.deepEqual(refunded.by, {
      ...CREDENTIAL,
      // the request's read (its merchant), then the lane holder's read with the sale's refunds
      'online_sales find': 2,
      'refund_lanes insert': 1,
      'refunds find': 1,
      'refunds insert': 1,
      // the first refund of a CONFIRMED sale takes its transition (a cancel-capture stays out)
      'online_sale_transitions insert': 1,
      // the send record before the call, the settlement owing the events, their entries cleared
      'refunds update': 3,
      'online_sales update': 1,
      // refund.pending and refund.succeeded know their sequence; sale.refunded reads the sale's last (its number
      // from eventSeq would need the sale's write and the refund's, which a crash may part, to agree: not yet)
      'account_events find': 1,
      'account_events insert': 1,
      'refund_lanes delete': 1,
    });
  },
);

test.serial(
  "a sale's move numbers its event from the sale's eventSeq; a sale stored before eventSeq, or whose next number " +
    'another emitter took, reads the last event instead, and the numbers stay 1..n',
  async (t) => {
    const auth = bearer(merchant.merchantToken);
    const capture = (id: number) => callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/capture/`, auth);
    const sequencesOf = async (id: number) =>
      (
        await AccountEventModel.find({ objectKey: `sale_${id}` }, { type: 1, sequence: 1 })
          .sort({ sequence: 1 })
          .lean()
      ).map((event) => `${event.sequence} ${event.type}`);

    const current = (await preCapture(cardSale())).body.data;
    t.is((await PaymentModel.findById(current.id).lean())!.eventSeq, 1, 'sale.authorized was its first');
    const numbered = await commandsOf(t, () => capture(current.id));
    t.false('account_events find' in numbered.by);
    t.is((await PaymentModel.findById(current.id).lean())!.eventSeq, 2);
    t.deepEqual(await sequencesOf(current.id), ['1 sale.authorized', '2 sale.captured']);

    // As an earlier release stored it: no eventSeq.
    const older = (await preCapture(cardSale())).body.data;
    await PaymentModel.collection.updateOne({ _id: older.id } as never, { $unset: { eventSeq: '' } });
    const read = await commandsOf(t, () => capture(older.id));
    t.is(read.by['account_events find'], 1);
    t.deepEqual(await sequencesOf(older.id), ['1 sale.authorized', '2 sale.captured']);

    // Another emitter of the sale's object took number 2 first.
    const raced = (await preCapture(cardSale())).body.data;
    await recordEvent({ merchantId: merchant.merchantId, type: 'sale.refunded', objectId: raced.id, data: {} });
    t.is((await capture(raced.id)).status, 200);
    t.deepEqual(await sequencesOf(raced.id), ['1 sale.authorized', '2 sale.refunded', '3 sale.captured']);
  },
);
