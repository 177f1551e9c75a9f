/**
 * A link's QR code that no notice settled is settled by the scheduler's tick (src/refunds/second-payments.ts).
 * A code paid while a card pay held the link was settled only by its notice job's retries: when they ran out
 * before the dead pay's claim was released, and no page polled, the code stayed waiting. Its payer had paid:
 * the link stayed unpaid (the PIX never became its payment), or, the card having paid the link, the second
 * payment was neither announced nor given back. Here no notice worker runs: the notice is applied to its sale
 * by the job's own first step, and the rest is left to the tick, as after a job that ran out of retries.
 */
import '../helpers/env';
import test from 'ava';
import { callMayStillBeRunningMs, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { claimPayment } from '../../src/checkout/pay-claims';
import { settleStalePayments } from '../../src/checkout/settlement';
import { LinkPixChargeModel, PaymentLinkModel } from '../../src/payment-links/model';
import { RefundModel } from '../../src/payments/refund-model';
import { settleLinkPixCodes } from '../../src/refunds';
import { applyPaymentNotice } from '../../src/sales';
import { PaymentModel, PaymentNoticeModel } from '../../src/payments/model';
import { AccountEventModel } from '../../src/events/model';
import { encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { sandboxPost, useSalesEnv } from '../sales/helpers';
import { APPROVED_CARD, checkoutPath, readyLink } from './helpers';

const env = useSalesEnv({ workers: false });

const VALUE = 4_250;
const ONE_INSTALLMENT = { installments: 1, installmentValue: VALUE, total: VALUE, interestFree: true };

/** A PIX link with a live QR code, as its payer's page made it. */
async function linkWithCode() {
  const { id, guid } = await readyLink(env.app.url, env.merchant, { value: VALUE, payment_methods: ['card', 'pix'] });
  const code = await callJson(env.app, 'POST', checkoutPath(guid, 'pix'));
  if (code.status !== 200) throw new Error(`no QR code: ${JSON.stringify(code.body)}`);
  return { id, guid, qrCode: code.body.qrCode as string };
}

/** The payer pays the code in the bank app; the acquirer's notice is stored and applied to the sale, nothing more. */
async function paidAtBank(linkId: number, qrCode: string) {
  await sandboxPost(env, '/sandbox/pix/pay-code', {
    qr_code: qrCode,
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
  const pix = (await LinkPixChargeModel.findOne({ linkId }).lean())!;
  const sale = (await PaymentModel.findById(pix.saleId).lean())!;
  const notice = await eventually(() => PaymentNoticeModel.findOne({ paymentId: sale.acquirerPaymentId }).lean());
  await applyPaymentNotice(notice!._id);
  assertConfirmed(await PaymentModel.findById(sale._id).lean());
  return pix;
}
function assertConfirmed(sale: { status: string } | null) {
  if (sale?.status !== 'CONFIRMED') throw new Error(`the notice did not confirm the sale: ${sale?.status}`);
}

const codeState = async (pixId: string) => (await LinkPixChargeModel.findById(pixId).lean())!.state;

// Serial: the tick settles every code and claim of this file's database.
test.serial('a code paid while a dead card pay held the link becomes its payment at the tick', async (t) => {
  const { id, qrCode } = await linkWithCode();
  // A card pay claimed the link long ago and died before asking the acquirer anything.
  const link = (await PaymentLinkModel.findById(id).lean())!;
  await claimPayment(link, ONE_INSTALLMENT, new Date(Date.now() - callMayStillBeRunningMs() - 5_000));
  const pix = await paidAtBank(id, qrCode);

  // While the claim is held, the tick leaves the code: which payment is the link's is not known yet.
  await settleLinkPixCodes(new Date());
  t.is(await codeState(pix._id), 'waiting');
  // The sweep of stale claims finds the dead pay charged nothing and frees the link; the next tick settles.
  t.true((await settleStalePayments()) >= 1);
  t.true((await settleLinkPixCodes(new Date())) >= 1);
  t.is(await codeState(pix._id), 'paid');
  const paid = (await PaymentLinkModel.findById(id).lean())!;
  t.is(paid.status, 2);
  t.is(paid.payment!.method, 'pix');
  t.is(paid.saleId, pix.saleId);
  t.is(await RefundModel.countDocuments({ saleId: pix.saleId }), 0, 'the link payment is never given back');
});

test.serial('a code paid after the card paid the link is announced and given back at the tick, once', async (t) => {
  const { id, guid, qrCode } = await linkWithCode();
  const card = await callJson(
    env.app,
    'PUT',
    checkoutPath(guid, 'pay'),
    {},
    { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
  );
  t.true(card.body.approved, JSON.stringify(card.body));
  const pix = await paidAtBank(id, qrCode);
  t.is(await codeState(pix._id), 'waiting', 'no notice job settled it');

  await settleLinkPixCodes(new Date());
  t.is(await codeState(pix._id), 'returned');
  const refunds = await RefundModel.find({ saleId: pix.saleId }).lean();
  t.is(refunds.length, 1);
  t.like(refunds[0], { reason: 'duplicate', valueCents: VALUE });
  const announced = await AccountEventModel.countDocuments({
    objectKind: 'payment_link',
    objectId: String(id),
    type: 'payment_link.paid_twice',
  });
  t.is(announced, 1);
  // A later tick gives nothing back twice.
  await settleLinkPixCodes(new Date());
  t.is(await RefundModel.countDocuments({ saleId: pix.saleId }), 1);
  t.is((await PaymentLinkModel.findById(id).lean())!.payment!.method ?? 'card', 'card');
});
