/**
 * PIX on the checkout (issue 25, items 1-3 and 7): the link's methods, one live QR code for whoever asks,
 * the acquirer's notice (applied by the notice worker) paying the link, an expired code renewed, and a
 * PIX paid after the link already was kept apart from the link's payment.
 */
import '../helpers/env';
import test from 'ava';
import { getSale, PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { RefundModel } from '../../src/payments/refund-model';
import { linkPixNeedingAttention } from '../../src/checkout/pix';
import { LinkPixChargeModel, PaymentClaimModel, PaymentLinkModel } from '../../src/payment-links/model';
import { claimPayment } from '../../src/checkout/pay-claims';
import { PaymentModel } from '../../src/payments/model';
import { WebhookEventModel } from '../../src/webhooks/model';
import { AccountEventModel } from '../../src/events/model';
import { eventually } from '../helpers/processes';
import { bearer } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';
import { sandboxPost, useSalesEnv } from '../sales/helpers';
import { APPROVED_CARD, checkoutPath, createLink, readyLink } from './helpers';

process.env.WEBHOOK_TEST_ALLOW_HOSTS = '127.0.0.1:9';
const env = useSalesEnv();

const startPix = (guid: string) => callJson(env.app, 'POST', checkoutPath(guid, 'pix'));
const pixState = (guid: string) => callJson(env.app, 'GET', checkoutPath(guid, 'pix'));
const readLink = (id: number) =>
  callJson(env.app, 'GET', `/api/v1/payment-links/${id}/`, bearer(env.merchant.merchantToken));
/** The payer's bank app pays the copy-and-paste code; the sandbox notifies our app. */
const payCode = (qrCode: string) =>
  sandboxPost(env, '/sandbox/pix/pay-code', {
    qr_code: qrCode,
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });
const accountEventsOf = (linkId: number, type: string) =>
  AccountEventModel.find({ objectKind: 'payment_link', objectId: String(linkId), type }).lean();
const pixLink = (body: Record<string, unknown> = {}) =>
  readyLink(env.app.url, env.merchant, { value: 4_250, payment_methods: ['card', 'pix'], ...body });

test('card and PIX: one live QR code for all, paid in the bank app, the link paid by the notice', async (t) => {
  const { id, guid, link } = await pixLink({ pix_expires_in: 900, webhookUrl: 'http://127.0.0.1:9/hook' });
  t.deepEqual(link.payment_methods, ['card', 'pix']);
  t.is(link.pix_expires_in, 900);
  t.deepEqual((await callJson(env.app, 'GET', checkoutPath(guid))).body.paymentMethods, ['card', 'pix']);
  t.is((await pixState(guid)).body.status, 'none');

  const first = await startPix(guid);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body, { status: 'waiting', linkPaid: false, amount: 4_250 });
  t.regex(first.body.qrCode as string, /^000201.*6304[0-9A-F]{4}$/);
  t.regex(first.body.qrCodeImage as string, /^data:image\/png;base64,/);
  t.true((first.body.secondsLeft as number) > 800 && (first.body.secondsLeft as number) <= 900);
  // The same code for another payer (or a reload), while it lives.
  const again = await startPix(guid);
  t.is(again.body.qrCode, first.body.qrCode);
  t.is(await LinkPixChargeModel.countDocuments({ linkId: id }), 1);

  t.is((await payCode(first.body.qrCode as string)).status, 200);
  const paid = await eventually(async () => {
    const state = await pixState(guid);
    return state.body.status === 'paid' && state.body;
  });
  t.true(paid.linkPaid);
  const read = await readLink(id);
  t.is(read.body.status, 2);
  t.like(read.body.payment, { installments: 1, total: 4_250 });
  // The link's sale is its PIX sale: refunds of the link go to it.
  const sale = await PaymentModel.findById(read.body.sale_id).lean();
  t.like(sale, { paymentMethod: 'pix', status: 'CONFIRMED', amountCents: 4_250 });
  const receipt = (await callJson(env.app, 'GET', checkoutPath(guid))).body.receipt as Record<string, unknown>;
  t.like(receipt, { method: 'pix', amount: 4_250 });
  const event = await WebhookEventModel.findOne({ linkId: id, type: 'payment_link.paid' }).lean();
  const data = (JSON.parse(event!.body) as { data: Record<string, unknown> }).data;
  t.is(data.card, null);
  t.like(data.payment, { method: 'pix', total: 4_250 });
  // Paid once: no new code, no card pay.
  t.like(await startPix(guid), { status: 409, body: { detail: 'This payment link is already paid.' } });
  t.is((await pixState(guid)).body.status, 'paid');
  const card = await callJson(env.app, 'PUT', checkoutPath(guid, 'pay'), {}, { encrypted_card: encryptedTestCard() });
  t.is(card.status, 409);
});

test('an expired QR code ends with its event, and only then is a new one made', async (t) => {
  const { id, guid } = await pixLink({ webhookUrl: 'http://127.0.0.1:9/hook' });
  const first = (await startPix(guid)).body;
  // The code's time runs out, at the acquirer and on our clock.
  const pix = await LinkPixChargeModel.findOne({ linkId: id }).lean();
  const sale = await PaymentModel.findById(pix!.saleId).lean();
  await sandboxPost(env, `/sandbox/pix/${sale!.acquirer.paymentId}/expire`);
  await LinkPixChargeModel.updateOne({ _id: pix!._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });

  t.like((await pixState(guid)).body, { status: 'expired', qrCode: null, qrCodeImage: null, linkPaid: false });
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.pix_expired' }), 1);
  t.is((await accountEventsOf(id, 'payment_link.pix_expired')).length, 1);
  const renewed = await startPix(guid);
  t.is(renewed.body.status, 'waiting');
  t.not(renewed.body.qrCode, first.qrCode);
  t.is(await LinkPixChargeModel.countDocuments({ linkId: id }), 2);
  // The expired code cannot be paid any more at the acquirer; the new one pays the link.
  t.is((await payCode(first.qrCode as string)).status, 400);
  await payCode(renewed.body.qrCode as string);
  await eventually(async () => (await pixState(guid)).body.linkPaid === true);
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.pix_expired' }), 1);
  t.is((await accountEventsOf(id, 'payment_link.pix_expired')).length, 1);
});

test('a PIX paid after the card paid the link is never its payment: announced, and its money goes back', async (t) => {
  const { id, guid } = await pixLink({ webhookUrl: 'http://127.0.0.1:9/hook' });
  const code = (await startPix(guid)).body.qrCode as string;
  const card = await callJson(
    env.app,
    'PUT',
    checkoutPath(guid, 'pay'),
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
    },
  );
  t.true(card.body.approved);
  await payCode(code);
  const returned = await eventually(async () => {
    const state = await pixState(guid);
    return state.body.status === 'returned' && state.body;
  });
  t.true(returned.linkPaid);
  const link = await PaymentLinkModel.findById(id).lean();
  t.is(link!.payment!.method ?? 'card', 'card');
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid_twice' }), 1);
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }), 1);
  // The account's endpoints hear it too, once, with the second sale to follow.
  const [announced, ...more] = await accountEventsOf(id, 'payment_link.paid_twice');
  t.is(more.length, 0);
  t.like(JSON.parse(announced.body).data.payment, { method: 'pix', total: 4_250 });
  // The second payment's whole value goes back through the refunds core, once; the acquirer completes it.
  const pix = await LinkPixChargeModel.findOne({ linkId: id }).lean();
  const refunds = await RefundModel.find({ saleId: pix!.saleId }).lean();
  t.is(refunds.length, 1);
  t.like(refunds[0], { reason: 'duplicate', valueCents: 4_250 });
  const sale = await eventually(async () => {
    const read = await PaymentModel.findById(pix!.saleId).lean();
    return read?.status === 'REFUNDED' && read;
  });
  const atAcquirer = sale ? await getSale(sale.acquirer.paymentId!) : null;
  t.is(atAcquirer?.voidedAmountCents, 4_250);
  t.is((await linkPixNeedingAttention()).link_pix_paid_twice, 0);
});

test('a QR code whose payment a concurrent settle of it recorded is the link payment, never returned', async (t) => {
  const { id, guid } = await pixLink({ webhookUrl: 'http://127.0.0.1:9/hook' });
  await payCode((await startPix(guid)).body.qrCode as string);
  await eventually(async () => (await pixState(guid)).body.status === 'paid');
  // The page's poll and the acquirer's notice settle the same code at once: one takes the link's claim and
  // records the payment, the other reads the code still waiting (as a settle that died before ending it
  // leaves it). Before the fix the second called it paid twice, and the notice refunded the link's payment.
  const pix = await LinkPixChargeModel.findOne({ linkId: id }).lean();
  await LinkPixChargeModel.updateOne({ _id: pix!._id }, { $set: { state: 'waiting', settledAt: null } });
  t.like((await pixState(guid)).body, { status: 'paid', linkPaid: true });
  t.is((await LinkPixChargeModel.findById(pix!._id).lean())!.state, 'paid');
  t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid_twice' }), 0);
  t.is(await RefundModel.countDocuments({ saleId: pix!.saleId }), 0);
});

test('a card and a PIX paying at once: the link is paid once, and the other payment is never kept', async (t) => {
  const { id, guid } = await pixLink();
  const code = (await startPix(guid)).body.qrCode as string;
  const [card] = await Promise.all([
    callJson(
      env.app,
      'PUT',
      checkoutPath(guid, 'pay'),
      {},
      { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
    ),
    payCode(code),
  ]);
  // Settled by the notice worker alone (no page asks): the PIX is the link's payment, or it was paid after
  // the card and goes back.
  const pix = await eventually(async () => {
    const stored = await LinkPixChargeModel.findOne({ linkId: id }).lean();
    return ['paid', 'returned'].includes(stored!.state) && stored;
  });
  const link = await PaymentLinkModel.findById(id).lean();
  t.is(link!.status, 2);
  const cardCharged = card.status === 200 && card.body.approved === true;
  if (pix && pix.state === 'paid') {
    t.false(cardCharged); // the card pay found the link paid (409) and charged nothing
    t.is(link!.payment!.method, 'pix');
  } else {
    t.true(cardCharged);
    t.is(link!.payment!.method ?? 'card', 'card');
    t.is(await RefundModel.countDocuments({ saleId: pix && pix.saleId }), 1);
  }
});

test('a card pay that paid the link after the page read it as payable: no QR code is made', async (t) => {
  const { id, guid } = await pixLink();
  // The card pay's claim is paid; the link's own paid write has not landed yet (the window a QR code request
  // read the link in). Before, only a claim still charging stopped the code: one was made for a paid link.
  const link = (await PaymentLinkModel.findById(id).lean())!;
  await claimPayment(link, { installments: 1, installmentValue: 4_250, total: 4_250, interestFree: true }, new Date());
  await PaymentClaimModel.updateOne({ _id: id }, { $set: { state: 'paid' } });
  t.like(await startPix(guid), { status: 409, body: { detail: 'This payment link is already paid.' } });
  t.is(await LinkPixChargeModel.countDocuments({ linkId: id }), 0);
});

test('concurrent payers asking for a QR code get one code', async (t) => {
  const { id, guid } = await pixLink();
  const answers = await Promise.all(Array.from({ length: 6 }, () => startPix(guid)));
  const codes = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.qrCode));
  t.true(answers.every((a) => a.status === 200 || a.status === 409));
  t.true(codes.size <= 1);
  t.is((await startPix(guid)).body.qrCode, (await pixState(guid)).body.qrCode);
  t.is(await LinkPixChargeModel.countDocuments({ linkId: id }), 1);
});

test('a card-only link makes no QR code, a PIX-only link takes no card, bad methods are named', async (t) => {
  const cardOnly = await readyLink(env.app.url, env.merchant, { value: 1_000 });
  t.deepEqual(cardOnly.link.payment_methods, ['card']);
  t.deepEqual((await startPix(cardOnly.guid)).body, { payment_method: ['This payment link is not paid by PIX.'] });
  const pixOnly = await readyLink(env.app.url, env.merchant, { value: 1_000, payment_methods: ['pix'] });
  const card = await callJson(
    env.app,
    'PUT',
    checkoutPath(pixOnly.guid, 'pay'),
    {},
    {
      encrypted_card: encryptedTestCard(),
    },
  );
  t.deepEqual(card.body, { payment_method: ['This payment link is paid by PIX only.'] });
  const bad = await createLink(env.app.url, env.merchant, { payment_methods: ['boleto'], pix_expires_in: 59 });
  t.is(bad.status, 400);
  t.deepEqual(Object.keys(bad.body).sort(), ['payment_methods', 'pix_expires_in']);
  t.deepEqual((await createLink(env.app.url, env.merchant, { pix_expires_in: 86_401 })).body, {
    pix_expires_in: ['Ensure this value is less than or equal to 86400.'],
  });
  t.deepEqual((await createLink(env.app.url, env.merchant, { payment_methods: [] })).body, {
    payment_methods: ['Name at least one payment method.'],
  });
  // The payer step comes first: the acquirer needs the payer's name and CPF/CNPJ.
  const bare = await createLink(env.app.url, env.merchant, { payment_methods: ['pix'] });
  t.is((await startPix(bare.body.payment_link_guid as string)).status, 400);
});
