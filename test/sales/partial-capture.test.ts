import '../helpers/env';
import test from 'ava';
import { bearer } from '../helpers/identity';
import { getSale } from '../../src/acquirer/client';
import { PaymentModel } from '../../src/payments/model';
import { cardSale, PRE_CAPTURE, useSalesEnv } from './helpers';
import { callJson } from '../helpers/http';

const env = useSalesEnv({ workers: false });
const token = () => bearer(env.merchant.merchantToken);
const capture = (id: number, body?: unknown) =>
  callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/capture/`, token(), body);
/** What the acquirer captured of a sale (the sandbox's GET, as reconciliation reads it). */
const capturedAtAcquirer = async (paymentId: string) => (await getSale(paymentId))!.capturedAmountCents;
const preCaptured = async () =>
  (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({ value: 10000, installments: 1 }))).body.data;

test('a capture with a value captures that part once, and the acquirer holds the same amount', async (t) => {
  const sale = await preCaptured();
  t.is(sale.captured_value, null);
  const captured = await capture(sale.id, { value: 6000 });
  t.is(captured.status, 200);
  t.is(captured.body.data.sale_status, 'CONFIRMED');
  t.is(captured.body.data.captured_value, 6000);
  t.is(captured.body.data.value, 10000);
  const read = await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/`, token());
  t.is(read.body.data.captured_value, 6000);
  t.is(await capturedAtAcquirer(sale.acquirer.payment_id), 6000);
  // Once: the rest of the authorization is released, so a second capture is refused.
  const again = await capture(sale.id, { value: 4000 });
  t.is(again.status, 400);
  t.regex(again.body.detail, /CONFIRMED/);
  t.is(await capturedAtAcquirer(sale.acquirer.payment_id), 6000);
});

test('no body, an empty body or the whole value capture everything, as the contract says', async (t) => {
  for (const body of [undefined, {}, { value: 10000 }]) {
    const sale = await preCaptured();
    const captured = await capture(sale.id, body);
    t.is(captured.status, 200, JSON.stringify(body));
    t.is(captured.body.data.captured_value, 10000);
    t.is(await capturedAtAcquirer(sale.acquirer.payment_id), 10000);
  }
});

test('a value that is not 1 to the authorized cents is a 400 naming value, and nothing is captured', async (t) => {
  const sale = await preCaptured();
  const answers: Record<string, unknown> = {};
  for (const value of [0, -5, 10001, 12.5, '6000', null, 1e12]) {
    const res = await capture(sale.id, { value });
    answers[JSON.stringify(value)] = [res.status, Object.keys(res.body)];
  }
  const namesValue = [400, ['value']];
  t.deepEqual(answers, {
    '0': namesValue,
    '-5': namesValue,
    '10001': namesValue,
    '12.5': namesValue,
    '"6000"': namesValue,
    null: namesValue,
    '1000000000000': namesValue,
  });
  const unknown = await capture(sale.id, { value: 100, amount: 100 });
  t.deepEqual([unknown.status, unknown.body], [400, { amount: ['Unknown field.'] }]);
  const stored = await PaymentModel.findById(sale.id).lean();
  t.is(stored?.status, 'PRE_CAPTURED');
  t.is(await capturedAtAcquirer(sale.acquirer.payment_id), 0);
});

test('two partial captures at once capture once', async (t) => {
  const sale = await preCaptured();
  const answers = await Promise.all([capture(sale.id, { value: 3000 }), capture(sale.id, { value: 7000 })]);
  const won = answers.filter((res) => res.status === 200);
  t.is(won.length, 1);
  t.true(answers.every((res) => [200, 400, 409].includes(res.status)));
  t.is(await capturedAtAcquirer(sale.acquirer.payment_id), won[0].body.data.captured_value);
});
