/**
 * POST /api/v1/online/sales/{id}/refunds/ (a 1-cent partial refund of a captured card sale, settled
 * by the acquirer during the request: 201) against:
 *  - the baseline: the same partial void sent straight to the sandbox acquirer
 *    (PUT /1/sales/{PaymentId}/void?amount=1), the acquirer call alone;
 *  - the floor: the same work done the shortest way on the bare-Express baseline server: the same
 *    void through the same acquirer client plus one insert of the refund into `refunds`.
 * The ratio to the floor is what the refunds core adds around that work: credential, validation,
 * the admission slot, the send lane, the record of the send before the call, the settlement.
 *
 * The acquirer refuses a second cancel on a sale within 5 s (a refund would then wait its turn:
 * 202), so each side cycles over its own REFUND_SALES captured sales (made in the sandbox, recorded
 * as CONFIRMED in online_sales; the straight void's side, BASELINE_SALES), and a sale comes back
 * only after all the others.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../../config';
import { voidSale } from '../../../src/acquirer/client';
import { PaymentModel } from '../../../src/payments/model';
import { RefundModel } from '../../../src/payments/refund-model';
import { newMerchant } from '../../helpers/identity';
import type { BenchTarget, HttpCase } from './types';

/** Sales of our side and of the floor: at 1,000 refunds/s a sale comes back after 5 s. */
const REFUND_SALES = Number(process.env.BENCH_REFUND_SALES || 5000);
/** The straight void is the sandbox alone (thousands a second): it needs its own larger cycle. */
const BASELINE_SALES = Number(process.env.BENCH_REFUND_BASELINE_SALES || 25_000);
const CAPTURED_CENTS = 10_000_000;
const CREATE_STREAMS = 8;

/** The bench's sale ids and refund ids: above the fill's and the other cases' ranges, below 2^31. */
const firstSaleId = 2_000_000_000 + crypto.randomInt(0, 1000) * 30_000;
let floorRefundId = 2_140_000_000 + crypto.randomInt(0, 1000) * 1000;

const { merchantId: acquirerMerchantId, merchantKey } = getConfig().acquirer;
const acquirerHeaders = { MerchantId: acquirerMerchantId, MerchantKey: merchantKey };

/** A captured card sale made in the sandbox, straight (no sale of ours): its PaymentId and TID. */
async function sandboxCapturedSale(sandboxUrl: string, orderId: string): Promise<{ paymentId: string; tid: string }> {
  const res = await fetch(`${sandboxUrl}/1/sales/`, {
    method: 'POST',
    headers: { ...acquirerHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({
      MerchantOrderId: orderId,
      Customer: { Name: 'Maria Silva' },
      Payment: {
        Type: 'CreditCard',
        Amount: CAPTURED_CENTS,
        Installments: 1,
        Capture: true,
        CreditCard: {
          CardNumber: '4000000000000010',
          Holder: 'MARIA SILVA',
          ExpirationDate: `12/${new Date().getUTCFullYear() + 3}`,
          SecurityCode: '123',
          Brand: 'Visa',
        },
      },
    }),
  });
  const body = (await res.json()) as { Payment: { PaymentId: string; Tid: string; Status: number } };
  if (res.status !== 201 || body.Payment.Status !== 2) throw new Error(`refunds bench: sandbox sale ${res.status}`);
  return { paymentId: body.Payment.PaymentId, tid: body.Payment.Tid };
}

/** `count` captured sandbox sales, made CREATE_STREAMS at a time. */
async function sandboxSales(sandboxUrl: string, prefix: string, count: number) {
  const made: { paymentId: string; tid: string }[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_STREAMS }, async () => {
      for (let i = next++; i < count; i = next++) made[i] = await sandboxCapturedSale(sandboxUrl, `${prefix}${i}`);
    }),
  );
  return made;
}

/** A target that sends its i-th request to the i-th of `n` items, round and round. */
function cycling(target: Omit<BenchTarget, 'setupRequest'>, n: number, nth: (i: number) => Partial<BenchTarget>) {
  let sent = 0;
  const first = nth(0);
  return {
    ...target,
    ...first,
    setupRequest: (request: { path?: string; body?: unknown }) => ({ ...request, ...nth(sent++ % n) }),
  } as BenchTarget;
}

export const refundsCase: HttpCase = {
  name: 'refunds',
  route: 'POST /api/v1/online/sales/{id}/refunds/',
  needs: ['sandbox'],
  baseline: 'the same 1-cent partial void PUT straight to the sandbox acquirer (/1/sales/{PaymentId}/void?amount=1)',
  floor: 'bare Express: the same void through the same acquirer client + one insert into refunds',
  mountBaseline(router) {
    router.post('/floor', async (req, res) => {
      const paymentId = String(req.body?.payment_id);
      const _id = floorRefundId++;
      await voidSale(paymentId, { amountCents: 1, idempotencyKey: `floor-refund-${_id}` });
      const now = new Date();
      await RefundModel.collection.insertOne({
        _id,
        saleId: Number(req.body?.sale_id),
        merchantId: Number(req.body?.merchant_id),
        slot: `floor:${_id}`,
        valueCents: 1,
        status: 'succeeded',
        createdAt: now,
        updatedAt: now,
        settledAt: now,
      } as never);
      res.status(201).json({ id: _id, status: 'succeeded' });
    });
  },
  async prepare(context) {
    if (!context.sandboxUrl) throw new Error('refunds case needs the sandbox');
    const merchant = await newMerchant();
    const run = crypto.randomBytes(3).toString('hex');
    const [ours, direct, floor] = await Promise.all([
      sandboxSales(context.sandboxUrl, `benchrefund${run}s`, REFUND_SALES),
      sandboxSales(context.sandboxUrl, `benchrefund${run}b`, BASELINE_SALES),
      sandboxSales(context.sandboxUrl, `benchrefund${run}f`, REFUND_SALES),
    ]);
    const now = new Date();
    const docs = ours.map((acquirer, i) => ({
      _id: firstSaleId + i,
      merchantId: merchant.merchantId,
      merchantOrderId: `benchrefund${run}s${i}`,
      orderReference: null,
      paymentMethod: 'card',
      amountCents: CAPTURED_CENTS,
      installments: 1,
      status: 'CONFIRMED',
      payer: { name: 'Maria Silva', document: '52998224725', documentType: 'CPF' },
      card: { brand: 'Visa', bin: '400000', last4: '0010', fromToken: false },
      acquirer: { paymentId: acquirer.paymentId, status: 2, returnCode: '6', returnMessage: '', tid: acquirer.tid },
      acquirerPaymentId: acquirer.paymentId,
      acquirerTid: acquirer.tid,
      denial: null,
      pix: null,
      reconciliation: null,
      capturedAt: now,
      capturedValue: CAPTURED_CENTS,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < docs.length; i += 1000)
      await PaymentModel.collection.insertMany(docs.slice(i, i + 1000) as never[]);
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({ value: 1, reason: 'other' });
    return {
      subject: cycling(
        {
          method: 'POST',
          path: '',
          headers: { authorization: `Bearer ${merchant.merchantToken}`, ...json },
          body,
          expectStatus: 201,
        },
        REFUND_SALES,
        (i) => ({ path: `/api/v1/online/sales/${firstSaleId + i}/refunds/` }),
      ),
      baseline: cycling(
        { on: 'sandbox', method: 'PUT', path: '', headers: acquirerHeaders, expectStatus: 200 },
        BASELINE_SALES,
        (i) => ({ path: `/1/sales/${direct[i].paymentId}/void?amount=1` }),
      ),
      floor: cycling(
        { method: 'POST', path: '/baseline/refunds/floor', headers: json, expectStatus: 201 },
        REFUND_SALES,
        (i) => ({
          body: JSON.stringify({ payment_id: floor[i].paymentId, sale_id: i, merchant_id: merchant.merchantId }),
        }),
      ),
    };
  },
};
