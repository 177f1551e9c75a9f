/**
 * A refund racing a chargeback acceptance of the same sale (issue 24, tests): the accept takes a
 * hold on the sale's captured value under the refunds' admission slots, so the money goes back
 * once, through whichever was admitted first (docs/api/refunds.md, "Chargebacks").
 */
import '../helpers/env';
import test from 'ava';
import { useChargebackApiOf } from '../helpers/acquirer';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { acceptChargeback, newEstablishment, notifiedChargeback } from '../helpers/chargeback-notices';
import { getSale } from '../../src/acquirer/client';
import { RefundModel } from '../../src/payments/refund-model';
import { startWorker } from '../../src/queue/queues';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { cardSale, PRE_CAPTURE, sandboxPost, untilFaultTaken, useSalesEnv } from '../sales/helpers';

const env = useSalesEnv();
let ec: string;
let owner: TestMerchant;

test.serial.before(async () => {
  useChargebackApiOf(env.sandbox.url);
  startWorker(REFUNDS_QUEUE, processSendRefunds);
  ec = newEstablishment();
  owner = await newMerchant({ establishmentNumbers: [ec] });
});

const token = () => bearer(owner.merchantToken);
const refund = (saleId: number, body: unknown = {}) =>
  callJson(env.app, 'POST', `/api/v1/online/sales/${saleId}/refunds/`, token(), body);
const readSale = async (id: number) =>
  (await callJson(env.app, 'GET', `/api/v1/online/sales/${id}/`, token())).body.data;

/** A captured card sale of 10000 and a chargeback of it that the acquirer registered and notified (stored here). */
async function chargedBackSale() {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({ value: 10000, installments: 1 }))).body
    .data;
  const captured = await callJson(env.app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, token());
  if (captured.status !== 200) throw new Error(`capture answered ${captured.status}`);
  return { sale, idChargeback: await notifiedChargeback(env.sandbox, ec, sale.acquirer.tid, 10000) };
}

const accept = (idChargeback: number) => acceptChargeback(env.app, token(), ec, idChargeback);

async function refundedAtAcquirer(sale: { id: number; acquirer: { payment_id: string } }) {
  const succeeded = (await RefundModel.find({ saleId: sale.id, status: 'succeeded', kind: 'refund' }).lean()).reduce(
    (sum, r) => sum + r.valueCents,
    0,
  );
  const voided = (await getSale(sale.acquirer.payment_id))!.voidedAmountCents;
  return { succeeded, voided };
}

test.serial('an accepted chargeback takes what is left: a later refund is 422 and nothing is voided', async (t) => {
  const { sale, idChargeback } = await chargedBackSale();
  const accepted = await accept(idChargeback);
  t.is(accepted.status, 200);
  t.is(accepted.body[0].code, '101');
  const late = await refund(sale.id, { value: 100 });
  t.is(late.status, 422);
  t.regex(late.body.detail, /chargeback/);
  t.deepEqual(await refundedAtAcquirer(sale), { succeeded: 0, voided: 0 });
  // The hold is not a refund: not listed.
  t.deepEqual((await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/refunds/`, token())).body.data, []);
});

test.serial('an accept while a refund waits is 409; after a refund it is 409 too (refuse it instead)', async (t) => {
  const { sale, idChargeback } = await chargedBackSale();
  await sandboxPost(env, '/sandbox/faults', {
    mode: 'latency',
    latencyMs: 1500,
    operation: 'void',
    paymentId: sale.acquirer.payment_id,
  });
  const refunding = refund(sale.id, { value: 3000 });
  // The refund's void is at the acquirer, held there for the latency: the accept comes while it waits.
  await untilFaultTaken(env, sale.acquirer.payment_id);
  const during = await accept(idChargeback);
  t.is(during.status, 409);
  t.regex(during.body.detail, /in progress/);
  t.is((await refunding).body.data.status, 'succeeded');
  const after = await accept(idChargeback);
  t.is(after.status, 409);
  t.regex(after.body.detail, /already had 3000 cents refunded/);
  t.deepEqual(await refundedAtAcquirer(sale), { succeeded: 3000, voided: 3000 });
  // The acquirer was never asked: the chargeback is still pending there.
  const cases = (await callJson(env.sandbox, 'GET', `/sandbox-cb/_test/cases/${ec}`)).body as {
    idChargeback: number;
    handled: unknown;
  }[];
  t.falsy(cases.find((c) => c.idChargeback === idChargeback)!.handled);
});

test.serial('a refund and an accept of the same sale at once: the money goes back once', async (t) => {
  const outcomes: string[] = [];
  // The refund starts a little later in later rounds: both orders of admission are met.
  for (const delayMs of [0, 0, 20, 40, 80, 160]) {
    const { sale, idChargeback } = await chargedBackSale();
    const [accepted, refunded] = await Promise.all([
      accept(idChargeback),
      new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => refund(sale.id, { value: 4000 })),
    ]);
    const money = await eventually(async () => {
      const pending = await RefundModel.countDocuments({ saleId: sale.id, status: 'pending' });
      return pending === 0 ? refundedAtAcquirer(sale) : null;
    }, 30_000);
    if (accepted.status === 200) {
      outcomes.push('chargeback');
      t.is(refunded.status, 422, JSON.stringify(refunded.body));
      t.deepEqual(money, { succeeded: 0, voided: 0 });
    } else {
      outcomes.push('refund');
      t.is(accepted.status, 409, JSON.stringify(accepted.body));
      t.true([201, 202].includes(refunded.status));
      t.deepEqual(money, { succeeded: 4000, voided: 4000 });
      t.like(await readSale(sale.id), { refunded_value: 4000 });
    }
  }
  t.log(`winners: ${outcomes.join(', ')}`);
});
