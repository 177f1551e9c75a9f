/**
 * A link's payment_link.paid event is stored once, whoever records the payment and in whatever
 * order: the pay that holds the claim, the sweep that settles the claim once its lease is over, a
 * pay that took the claim over. Each test calls the service functions directly, in the order of
 * the interleaving, against the real store and the sandbox acquirer.
 */
import '../helpers/env';
import test from 'ava';
import { callMayStillBeRunningMs, createCardSale } from '../../src/acquirer/client';
import { claimPayment, type HeldPayment } from '../../src/checkout/pay-claims';
import { linkPaymentOf, recordPaid, settleStalePayments } from '../../src/checkout/settlement';
import { PaymentClaimModel, PaymentLinkModel, type PaymentLink } from '../../src/payment-links/model';
import mongoose from 'mongoose';
import { AccountEventModel } from '../../src/events/model';
import { WebhookEventModel } from '../../src/webhooks/model';
import { emitLinkEvent } from '../../src/webhooks/outbox';
import { clearTestCard } from '../helpers/cards';
import { APPROVED_CARD, readyLink, useLinkApp } from './helpers';

const ONE_INSTALLMENT = { installments: 1, installmentValue: 2700, total: 2700, interestFree: true };

// The links carry a webhook: their events are stored and queued (nothing delivers them here).
const shop = useLinkApp('Pago Uma Vez ME', { allowWebhookHost: '127.0.0.1:9' });
const WEBHOOK = 'http://127.0.0.1:9/hook';

const paidEvents = (linkId: number) => WebhookEventModel.countDocuments({ linkId, type: 'payment_link.paid' });

/** A link ready to pay (with a webhook), as the pay step reads it. */
async function payableLink(): Promise<PaymentLink> {
  const { id } = await readyLink(shop.app.url, shop.merchant, { value: 2700, webhookUrl: WEBHOOK });
  return (await PaymentLinkModel.findById(id).lean())!;
}

/** The claim's charge, approved by the acquirer under the claim's keys, as the link records it. */
async function approvedCharge(link: PaymentLink, claim: HeldPayment) {
  const sale = await createCardSale({
    idempotencyKey: claim.document.attemptKey,
    merchantOrderId: claim.document.merchantOrderId,
    amountCents: link.value,
    installments: 1,
    capture: true,
    customer: { name: 'Maria Silva' },
    card: { ...clearTestCard({ number: APPROVED_CARD }), brand: 'Visa' },
  });
  return linkPaymentOf(sale, { brand: 'Visa', bin: '400000', last4: '0010' }, ONE_INSTALLMENT);
}

/** A moment at which a pay started then has its claim's lease over. */
const pastTheLease = () => new Date(Date.now() - callMayStillBeRunningMs() - 5_000);

/** A link whose pay claimed it so long ago that its lease is over, with the acquirer's approval in hand. */
async function slowPay() {
  const link = await payableLink();
  const slow = await claimPayment(link, ONE_INSTALLMENT, pastTheLease());
  return { link, slow, payment: await approvedCharge(link, slow) };
}

// Serial: the sweep settles every stale claim of this file's database.
test.serial(
  'a pay still finishing after its lease, whose claim the sweep settled meanwhile, stores no second paid event',
  async (t) => {
    const { link, slow: claim, payment } = await slowPay();
    // The holder has the acquirer's approval but has not written yet; its lease is over, so the sweep
    // asks the acquirer by the claim's order id and records the same sale, event included.
    t.true((await settleStalePayments()) >= 1);
    t.is(await paidEvents(link._id), 1);
    t.is((await PaymentClaimModel.findById(link._id).lean())!.state, 'paid');
    // Then the holder finishes.
    await recordPaid(link, claim, payment, new Date());
    t.is(await paidEvents(link._id), 1, 'the holder finishing late stores no second paid event');
    const stored = (await PaymentClaimModel.findById(link._id).lean())!;
    t.is(stored.state, 'paid');
    t.truthy(stored.notifiedAt, 'nothing is owed: the event is stored');
    t.is((await PaymentLinkModel.findById(link._id).lean())!.status, 2);
  },
);

test.serial(
  'a pay that took over a stale claim and recorded the sale, then its slow first holder finishing: one paid event',
  async (t) => {
    const { link, slow, payment } = await slowPay();
    const taker = await claimPayment(link, ONE_INSTALLMENT, new Date());
    t.truthy(taker.takenOver, 'the lease was over: taken over under the same acquirer keys');
    const replayed = await approvedCharge(link, taker);
    t.is(replayed.acquirerPaymentId, payment.acquirerPaymentId, 'the acquirer replays the same sale');
    await recordPaid(link, taker, replayed, new Date());
    await recordPaid(link, slow, payment, new Date());
    t.is(await paidEvents(link._id), 1);
  },
);

test.serial('the holder, the sweep and a taker recording the same payment at once: one paid event', async (t) => {
  const { link, slow, payment } = await slowPay();
  const taker = await claimPayment(link, ONE_INSTALLMENT, new Date());
  await Promise.all([
    recordPaid(link, slow, payment, new Date()),
    recordPaid(link, taker, payment, new Date()),
    recordPaid(link, slow, payment, new Date()),
  ]);
  t.is(await paidEvents(link._id), 1);
  // The account events too: the sale's and the link's, once each.
  const { saleId } = (await PaymentLinkModel.findById(link._id).lean())!;
  const accountEvents = await AccountEventModel.find({
    objectKey: mongoose.trusted({ $in: [`sale_${saleId}`, `payment_link_${link._id}`] }),
  }).lean();
  t.deepEqual(accountEvents.map((e) => e.type).sort(), ['payment_link.paid', 'sale.captured']);
});

test('an event owed once per link is stored once among concurrent emitters, after other events too', async (t) => {
  const link = await payableLink();
  const event = (type: string) => ({
    merchantId: link.merchantId,
    linkId: link._id,
    url: WEBHOOK,
    type,
    data: {},
    oncePerLink: type === 'payment_link.paid',
  });
  await emitLinkEvent(event('payment_link.payment_denied'));
  const stored = await Promise.all(Array.from({ length: 5 }, () => emitLinkEvent(event('payment_link.paid'))));
  t.is(new Set(stored.map((e) => e._id)).size, 1, 'every emitter answers with the one stored event');
  t.is(stored[0]._id, `msg_${link._id}_2`, 'it takes the next sequence number');
  // Not only the last event is looked at: one of another type stored after it does not hide it.
  await emitLinkEvent(event('payment_link.payment_denied'));
  t.is((await emitLinkEvent(event('payment_link.paid')))._id, `msg_${link._id}_2`);
  t.is(await paidEvents(link._id), 1);
  t.deepEqual(
    (await WebhookEventModel.find({ linkId: link._id }).sort({ sequence: 1 }).lean()).map((e) => e.sequence),
    [1, 2, 3],
    'sequences stay consecutive',
  );
});
