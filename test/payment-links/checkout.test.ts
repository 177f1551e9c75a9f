import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { json } from '../helpers/app';
import { acquirerEvents, createCardSale, type AcquirerCallEvent } from '../../src/acquirer/client';
import { paymentsNeedingAttention, settleStalePayments } from '../../src/checkout/service';
import { runMigrations } from '../../src/db/migrations/runner';
import { WebhookEventModel } from '../../src/webhooks/model';
import { PaymentClaimModel, PaymentLinkModel } from '../../src/payment-links/model';
import { UNDECRYPTABLE_CARD } from '../../src/cards';
import { rateLimitKey } from '../../src/http/rate-limit';
import { getProducerConnection } from '../../src/platform/redis';
import type { Request } from 'express';
import {
  APPROVED_CARD,
  DENIED_CARD,
  VALID_ALPHANUMERIC_CNPJ,
  VALID_CNPJ,
  VALID_CPF,
  checkoutPath,
  createLink,
  readyLink,
  useLinkApp,
} from './helpers';
import { clearTestCard, encryptedTestCard } from '../helpers/cards';
import { call, callJson, send } from '../helpers/http';

// Links of the stale-payment tests carry a webhook: its events are stored (nothing delivers them here).
const shop = useLinkApp('Doces da Vila ME', { allowWebhookHost: '127.0.0.1:9' });

/** The payer pays link `guid` with test card `number`. */
const pay = (guid: string, number: string) =>
  callJson(shop.app, 'PUT', checkoutPath(guid, 'pay'), {}, { encrypted_card: encryptedTestCard({ number }) });

/** A pay of link `id` still charging since `ageMs` ago, as a process that died (or still runs) left it. */
const chargingClaim = (id: number, attemptKey: string, orderSuffix: string, ageMs: number) =>
  PaymentClaimModel.create({
    _id: id,
    attemptKey,
    merchantOrderId: `PL${id}T${orderSuffix}`,
    state: 'charging',
    startedAt: new Date(Date.now() - ageMs),
  });

// Serial (before the concurrent tests): the sweep settles every stale claim of this database.
test.serial(
  'a pay whose process died after the acquirer approved is finished by the sweep: link paid, event stored once',
  async (t) => {
    const { guid, id } = await readyLink(shop.app.url, shop.merchant, {
      value: 3100,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    const merchantOrderId = `PL${id}Tdead`;
    const sale = await createCardSale({
      idempotencyKey: 'the-dead-pay',
      merchantOrderId,
      amountCents: 3100,
      installments: 1,
      capture: true,
      customer: { name: 'Maria Silva' },
      card: { ...clearTestCard({ number: APPROVED_CARD }), brand: 'Visa' },
    });
    await PaymentClaimModel.create({
      _id: id,
      attemptKey: 'the-dead-pay',
      merchantOrderId,
      state: 'charging',
      startedAt: new Date(Date.now() - 3600_000),
    });
    t.is((await PaymentLinkModel.findById(id).lean())!.status, 1, 'the charge went through, the link does not know');

    t.true((await settleStalePayments()) >= 1);
    const link = (await PaymentLinkModel.findById(id).lean())!;
    t.is(link.status, 2);
    t.is(link.payment?.acquirerPaymentId, sale.paymentId);
    t.is(link.payment?.last4, '0010');
    t.is(
      link.payment?.authorizationCode,
      sale.authorizationCode,
      'the receipt has the authorization code of a sale settled by the sweep too',
    );
    const claim = (await PaymentClaimModel.findById(id).lean())!;
    t.is(claim.state, 'paid');
    t.truthy(claim.notifiedAt);
    t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }), 1);
    await settleStalePayments();
    t.is(
      await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }),
      1,
      'a second sweep stores nothing more',
    );
    t.is((await pay(guid, APPROVED_CARD)).status, 409);
  },
);

test.serial(
  'a pay that died after recording the link paid and its event, before its one claim write, is finished by the ' +
    'sweep: no second event',
  async (t) => {
    const { guid, id } = await readyLink(shop.app.url, shop.merchant, { webhookUrl: 'http://127.0.0.1:9/hook' });
    t.is((await pay(guid, APPROVED_CARD)).status, 200);
    const paidLink = (await PaymentLinkModel.findById(id).lean())!;
    // Back to what the pay had written when it died: the link paid, the event stored, the claim still charging.
    await PaymentClaimModel.collection.updateOne(
      { _id: id as never },
      {
        $set: {
          state: 'charging',
          payment: null,
          paymentDate: null,
          notifiedAt: null,
          startedAt: new Date(Date.now() - 3600_000),
        },
      },
    );
    t.is((await pay(guid, APPROVED_CARD)).status, 409, 'the link is paid');
    t.is(
      (await callJson(shop.app, 'PATCH', checkoutPath(guid, 'payer'), {}, { payer_name: 'Ana', document: VALID_CPF }))
        .status,
      409,
    );

    t.true((await settleStalePayments()) >= 1);
    const claim = (await PaymentClaimModel.findById(id).lean())!;
    t.is(claim.state, 'paid');
    t.is(
      claim.payment?.acquirerPaymentId,
      paidLink.payment?.acquirerPaymentId,
      'the same sale, asked of the acquirer by the order id',
    );
    t.truthy(claim.notifiedAt);
    t.is(
      await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }),
      1,
      'the event was already stored: not again',
    );
  },
);

test.serial(
  'a paid link that lost its payment gets it back from the claim; a stale claim with no sale is released only ' +
    'once no call can be in flight',
  async (t) => {
    const paidLink = await readyLink(shop.app.url, shop.merchant, { webhookUrl: 'http://127.0.0.1:9/hook' });
    t.is((await pay(paidLink.guid, APPROVED_CARD)).status, 200);
    const before = (await PaymentLinkModel.findById(paidLink.id).lean())!;
    // A concurrent write-back undid the payment on the link, and the event was still owed.
    await PaymentLinkModel.updateOne({ _id: paidLink.id }, { $set: { status: 1, payment: null, paymentDate: null } });
    await PaymentClaimModel.collection.updateOne(
      { _id: paidLink.id as never },
      { $set: { notifiedAt: null, eventOwed: true, startedAt: new Date(Date.now() - 3600_000) } },
    );

    const deadNoSale = await readyLink(shop.app.url, shop.merchant);
    await chargingClaim(deadNoSale.id, 'no-sale', 'none', 3600_000);
    const maybeInFlight = await readyLink(shop.app.url, shop.merchant);
    await chargingClaim(maybeInFlight.id, 'in-flight', 'flight', 40_000);
    // While a pay holds a link, its payer and address steps are refused: their write-back could undo a payment.
    t.is(
      (
        await callJson(
          shop.app,
          'PATCH',
          checkoutPath(maybeInFlight.guid, 'payer'),
          {},
          {
            payer_name: 'Ana',
            document: VALID_CPF,
          },
        )
      ).status,
      409,
    );

    await settleStalePayments();
    const restored = (await PaymentLinkModel.findById(paidLink.id).lean())!;
    t.is(restored.status, 2);
    t.is(restored.payment?.acquirerPaymentId, before.payment?.acquirerPaymentId);
    t.is(
      await WebhookEventModel.countDocuments({ linkId: paidLink.id, type: 'payment_link.paid' }),
      1,
      'the event was already stored: not again',
    );
    t.like((await PaymentClaimModel.findById(paidLink.id).lean())!, { eventOwed: false });
    t.truthy((await PaymentClaimModel.findById(paidLink.id).lean())!.notifiedAt);
    t.is(
      await PaymentClaimModel.findById(deadNoSale.id).lean(),
      null,
      'no sale and no call in flight: released, the link payable again',
    );
    t.truthy(await PaymentClaimModel.findById(maybeInFlight.id).lean(), 'a call may still be in flight: kept');
    await PaymentClaimModel.deleteOne({ _id: maybeInFlight.id });
  },
);

test.serial(
  'a claim stored before eventOwed existed, its event owed, is marked once and settled by the sweep',
  async (t) => {
    const { id } = await readyLink(shop.app.url, shop.merchant, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await PaymentClaimModel.collection.insertOne({
      _id: id as never,
      attemptKey: 'older-claim',
      merchantOrderId: `PL${id}Tolder`,
      state: 'paid',
      startedAt: new Date(Date.now() - 3600_000),
      payment: {
        acquirerPaymentId: 'older-payment',
        tid: null,
        returnCode: '4',
        returnMessage: 'ok',
        brand: 'Visa',
        bin: '400000',
        last4: '0010',
        installments: 1,
      },
      paymentDate: new Date(Date.now() - 3600_000),
      notifiedAt: null,
      checkedAt: null,
    });
    const unsettled = async () => (await paymentsNeedingAttention()).link_payment_unsettled_over_10m;
    const before = await unsettled();
    // Migration 0001 (the release's) marks it; this file's database has run none yet.
    t.deepEqual((await runMigrations({ leaseMs: 60_000 })).ran, ['0001-sweep-flags']);
    t.true((await PaymentClaimModel.findById(id).lean())!.eventOwed);
    t.is(await unsettled(), before + 1, 'seen once marked');
    await settleStalePayments();
    const claim = (await PaymentClaimModel.findById(id).lean())!;
    t.truthy(claim.notifiedAt);
    t.false(claim.eventOwed);
    t.is((await PaymentLinkModel.findById(id).lean())!.status, 2, 'the link written paid from the claim');
    t.is(await WebhookEventModel.countDocuments({ linkId: id, type: 'payment_link.paid' }), 1);
    t.is(await unsettled(), before);
  },
);

test.serial(
  'one address is limited across links on pay, before anything is charged, and not on the other steps',
  async (t) => {
    const limits = getConfig().checkoutPayRateLimit;
    const saved = { ...limits };
    const key = rateLimitKey('checkout-pay', { ip: '127.0.0.1' } as Request);
    const sales: AcquirerCallEvent[] = [];
    const listener = (event: AcquirerCallEvent) => {
      if (event.operation === 'createCardSale') sales.push(event);
    };
    await getProducerConnection().del(key);
    limits.limit = 3;
    limits.windowSeconds = 600;
    acquirerEvents.on('call', listener);
    try {
      const first = await readyLink(shop.app.url, shop.merchant);
      const second = await readyLink(shop.app.url, shop.merchant);
      // Malformed pays count: a card tester's garbage is not free.
      t.is((await callJson(shop.app, 'PUT', checkoutPath(first.guid, 'pay'), {}, {})).status, 400);
      t.is((await pay(first.guid, DENIED_CARD)).status, 200);
      t.is((await pay(second.guid, DENIED_CARD)).status, 200);
      const refused = await pay(second.guid, APPROVED_CARD);
      t.is(refused.status, 429);
      t.regex(refused.body.detail, /throttled/);
      t.true(Number(refused.headers.get('retry-after')) > 0);
      t.is(sales.length, 2, 'the refused pay never reached the acquirer');
      t.is((await PaymentLinkModel.findById(second.id).lean())!.status, 1, 'the link stays payable');
      // The other steps are not card attempts and stay open.
      t.is((await callJson(shop.app, 'GET', checkoutPath(second.guid), {})).status, 200);
      t.is(
        (
          await callJson(
            shop.app,
            'PATCH',
            checkoutPath(second.guid, 'payer'),
            {},
            {
              payer_name: 'Ana',
              document: VALID_CPF,
            },
          )
        ).status,
        200,
      );
    } finally {
      acquirerEvents.off('call', listener);
      Object.assign(limits, saved);
      await getProducerConnection().del(key);
    }
  },
);

test.serial('of many concurrent pays exactly one charges', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { value: 4200 });
  const sales: AcquirerCallEvent[] = [];
  const listener = (event: AcquirerCallEvent) => {
    if (event.operation === 'createCardSale') sales.push(event);
  };
  acquirerEvents.on('call', listener);
  try {
    const card = encryptedTestCard({ number: APPROVED_CARD });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        callJson(shop.app, 'PUT', checkoutPath(guid, 'pay'), {}, { encrypted_card: card }),
      ),
    );
    const statuses = results.map((r) => r.status);
    t.is(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    t.is(statuses.filter((s) => s === 409).length, 11, JSON.stringify(statuses));
    t.true(results.find((r) => r.status === 200)!.body.approved);
    t.is(sales.length, 1);
  } finally {
    acquirerEvents.off('call', listener);
  }
  const link = await PaymentLinkModel.findById(id).lean();
  t.is(link!.status, 2);
  t.is(await PaymentClaimModel.countDocuments({ _id: id }), 1);
});

test('load shows what the page needs and never the full document', async (t) => {
  const created = await createLink(shop.app.url, shop.merchant, {
    value: 12345,
    description: 'Torta',
    payer_name: 'João',
    document: VALID_CPF,
    email: 'joao@example.com',
    number_of_installments: 2,
  });
  const { status, body } = await callJson(shop.app, 'GET', checkoutPath(created.body.payment_link_guid), {});
  t.is(status, 200);
  t.is(body.payerName, 'João');
  t.is(body.amount, 12345);
  t.is(body.description, 'Torta');
  t.is(body.merchantCompanyName, 'Doces da Vila ME');
  t.is(body.installments, 2);
  t.is(body.status, 1);
  t.is(body.statusLabel, 'Pendente');
  t.false(body.paid);
  t.false(body.expired);
  t.is(body.expiresAt, created.body.expires_at);
  t.regex(body.publicKey, /BEGIN PUBLIC KEY/);
  t.is(body.receipt, null);
  const text = JSON.stringify(body);
  t.false(text.includes('52998224725'));
  t.false(text.includes(VALID_CPF));
  t.false(text.includes('joao@example.com'));
  t.is(body.payerDocument, '***.982.***-**');
  const raw = await send(shop.app, 'GET', `${checkoutPath(created.body.payment_link_guid)}`);
  t.is(raw.headers.get('cache-control'), 'no-store');
});

test('unknown guid is 404 on every checkout route and on the page', async (t) => {
  const guid = '00000000-0000-4000-8000-000000000000';
  t.is((await callJson(shop.app, 'GET', checkoutPath(guid), {})).status, 404);
  t.is(
    (await callJson(shop.app, 'PATCH', checkoutPath(guid, 'payer'), {}, { payer_name: 'A', document: VALID_CPF }))
      .status,
    404,
  );
  t.is((await callJson(shop.app, 'PATCH', checkoutPath(guid, 'address'), {}, { cep: '01310100' })).status, 404);
  t.is((await pay(guid, APPROVED_CARD)).status, 404);
  t.is((await send(shop.app, 'GET', `/checkout/${guid}`)).status, 404);
});

test('payer step checks cpf and cnpj check digits, alphanumeric cnpj included', async (t) => {
  const { body: link } = await createLink(shop.app.url, shop.merchant);
  const path = checkoutPath(link.payment_link_guid, 'payer');
  for (const document of [
    VALID_CPF,
    '52998224725',
    VALID_CNPJ,
    '11222333000181',
    VALID_ALPHANUMERIC_CNPJ,
    '12abc34501de35',
  ]) {
    const res = await callJson(shop.app, 'PATCH', path, {}, { payer_name: 'Cliente', document });
    t.is(res.status, 200, document);
    t.true(res.body.payerDocumentSaved);
  }
  for (const document of [
    '529.982.247-24',
    '111.111.111-11',
    '11.222.333/0001-82',
    '12.ABC.345/01DE-36',
    '00000000000000',
    '123',
    'ABCDEFGHIJKLMN',
  ]) {
    const res = await callJson(shop.app, 'PATCH', path, {}, { payer_name: 'Cliente', document });
    t.is(res.status, 400, document);
    t.deepEqual(Object.keys(res.body), ['document']);
  }
});

test('payer step: alias, name saved, required fields, limits', async (t) => {
  const { body: link } = await createLink(shop.app.url, shop.merchant, { payer_name: 'Antes' });
  const path = checkoutPath(link.payment_link_guid, 'payer');
  const alias = await callJson(shop.app, 'PATCH', path, {}, { merchant_name: 'Pelo Alias', document: VALID_CPF });
  t.is(alias.status, 200);
  t.is(alias.body.payerName, 'Pelo Alias');
  const both = await callJson(
    shop.app,
    'PATCH',
    path,
    {},
    {
      merchant_name: 'Perde',
      payer_name: 'Ganha',
      document: VALID_CPF,
    },
  );
  t.is(both.body.payerName, 'Ganha');
  t.is((await callJson(shop.app, 'GET', checkoutPath(link.payment_link_guid), {})).body.payerName, 'Ganha');
  const empty = await callJson(shop.app, 'PATCH', path, {}, {});
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { payer_name: ['This field is required.'], document: ['This field is required.'] });
  const long = await callJson(shop.app, 'PATCH', path, {}, { payer_name: 'x'.repeat(21), document: '1'.repeat(21) });
  t.deepEqual(Object.keys(long.body).sort(), ['document', 'payer_name']);
});

test('address step: cep of 8 digits, optional lines saved', async (t) => {
  const { body: link } = await createLink(shop.app.url, shop.merchant);
  const path = checkoutPath(link.payment_link_guid, 'address');
  const ok = await callJson(
    shop.app,
    'PATCH',
    path,
    {},
    {
      cep: '01310-100',
      complement: 'apto 12',
      reference: 'perto do metrô',
      street: 'Av. Paulista',
      number: '1000',
      city: 'São Paulo',
      state: 'sp',
    },
  );
  t.is(ok.status, 200);
  t.like(ok.body.address, { cep: '01310100', complement: 'apto 12', reference: 'perto do metrô', state: 'SP' });
  t.is((await callJson(shop.app, 'PATCH', path, {}, { cep: '01310100' })).status, 200);
  const bad = await callJson(shop.app, 'PATCH', path, {}, { cep: '1234', state: 'XX', complement: 'c'.repeat(101) });
  t.is(bad.status, 400);
  t.deepEqual(Object.keys(bad.body).sort(), ['cep', 'complement', 'state']);
  t.deepEqual(bad.body.cep, ['Enter a CEP of 8 digits.']);
  t.deepEqual((await callJson(shop.app, 'PATCH', path, {}, {})).body, { cep: ['This field is required.'] });
});

test('pay approves, marks the link paid, and a second pay is 409', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { value: 3000, number_of_installments: 3 });
  const paid = await pay(guid, APPROVED_CARD);
  t.is(paid.status, 200);
  t.true(paid.body.approved);
  t.is(paid.body.checkout.status, 2);
  t.is(paid.body.checkout.statusLabel, 'Pago');
  t.like(paid.body.checkout.receipt, { amount: 3000, installments: 3, cardBrand: 'Visa', cardLast4: '0010' });
  const link = await PaymentLinkModel.findById(id).lean();
  // The receipt's authorization is the issuer's short code, not the 20-digit transaction id (given apart).
  t.regex(paid.body.checkout.receipt.authorization, /^\d{6}$/);
  t.is(paid.body.checkout.receipt.authorization, link!.payment!.authorizationCode);
  t.is(paid.body.checkout.receipt.tid, link!.payment!.tid);
  t.not(paid.body.checkout.receipt.authorization, link!.payment!.tid);
  t.is(link!.status, 2);
  t.truthy(link!.paymentDate);
  t.like(link!.payment, { last4: '0010', bin: '400000', brand: 'Visa', installments: 3 });
  t.false(JSON.stringify(link).includes(APPROVED_CARD));
  const again = await pay(guid, APPROVED_CARD);
  t.is(again.status, 409);
  t.regex(again.body.detail, /already paid/);
  t.is(
    (await callJson(shop.app, 'PATCH', checkoutPath(guid, 'payer'), {}, { payer_name: 'X', document: VALID_CPF }))
      .status,
    409,
  );
  t.is((await callJson(shop.app, 'PATCH', checkoutPath(guid, 'address'), {}, { cep: '01310100' })).status, 409);
  const loaded = await callJson(shop.app, 'GET', checkoutPath(guid), {});
  t.true(loaded.body.paid);
  t.truthy(loaded.body.receipt.paymentDate);
  const merchantView = await send(shop.app, 'GET', `/api/v1/payment-links/${id}/`, {
    authorization: `Bearer ${shop.merchant.merchantToken}`,
  });
  const view = await json(merchantView);
  t.is(view.status, 2);
  t.is(view.status_label, 'Pago');
  t.regex(view.payment_date, /[+-]\d{2}:\d{2}$/);
});

test('a denied card leaves the link payable', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant);
  const denied = await pay(guid, DENIED_CARD);
  t.is(denied.status, 200);
  t.false(denied.body.approved);
  // The acquirer's code and message as the merchant gets them; the payer's text in Portuguese.
  t.deepEqual(denied.body.denial, {
    code: '05',
    message: 'Not Authorized',
    payerMessage: 'O banco emissor não autorizou o pagamento. Confira os dados ou use outro cartão.',
  });
  t.is(denied.body.checkout.status, 1);
  t.is((await PaymentLinkModel.findById(id).lean())!.status, 1);
  t.is(await PaymentClaimModel.countDocuments({ _id: id }), 0);
  const paid = await pay(guid, APPROVED_CARD);
  t.true(paid.body.approved);
});

test('a link stops taking cards after ten declines', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant);
  await PaymentLinkModel.updateOne({ _id: id }, { $set: { declinedAttempts: 9 } });
  t.false((await pay(guid, DENIED_CARD)).body.approved);
  t.is((await PaymentLinkModel.findById(id).lean())!.declinedAttempts, 10);
  const refused = await pay(guid, APPROVED_CARD);
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /declined cards/);
});

test('an unreadable card is 400 with one message whatever the fault', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const path = checkoutPath(guid, 'pay');
  for (const encrypted_card of ['bm90IGVuY3J5cHRlZA==', '%%%', Buffer.alloc(256, 7).toString('base64')]) {
    const res = await callJson(shop.app, 'PUT', path, {}, { encrypted_card });
    t.is(res.status, 400);
    t.deepEqual(res.body, { encrypted_card: [UNDECRYPTABLE_CARD] });
  }
  t.deepEqual((await callJson(shop.app, 'PUT', path, {}, {})).body, { encrypted_card: ['This field is required.'] });
});

test('pay checks luhn, expiry and cvv shape', async (t) => {
  const { guid } = await readyLink(shop.app.url, shop.merchant);
  const path = checkoutPath(guid, 'pay');
  const luhn = await callJson(
    shop.app,
    'PUT',
    path,
    {},
    { encrypted_card: encryptedTestCard({ number: '4000000000000011' }) },
  );
  t.is(luhn.status, 400);
  t.truthy(luhn.body.number);
  const expired = await callJson(
    shop.app,
    'PUT',
    path,
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD, expYear: 2020 }),
    },
  );
  t.truthy(expired.body.expiry);
  const cvv = await callJson(
    shop.app,
    'PUT',
    path,
    {},
    { encrypted_card: encryptedTestCard({ number: APPROVED_CARD, cvv: '12' }) },
  );
  t.truthy(cvv.body.cvv);
  t.is((await callJson(shop.app, 'GET', checkoutPath(guid), {})).body.status, 1);
});

test('pay needs the payer step', async (t) => {
  const { body: link } = await createLink(shop.app.url, shop.merchant);
  const res = await pay(link.payment_link_guid, APPROVED_CARD);
  t.is(res.status, 400);
  t.deepEqual(Object.keys(res.body).sort(), ['document', 'payer_name']);
});

test('an expired link cannot be paid or edited', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { link_exp_period: 1 });
  await PaymentLinkModel.updateOne({ _id: id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  const loaded = await callJson(shop.app, 'GET', checkoutPath(guid), {});
  t.is(loaded.body.status, 3);
  t.true(loaded.body.expired);
  for (const [method, step, body] of [
    ['PUT', 'pay', { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) }],
    ['PATCH', 'payer', { payer_name: 'A', document: VALID_CPF }],
    ['PATCH', 'address', { cep: '01310100' }],
  ] as const) {
    const res = await callJson(shop.app, method, checkoutPath(guid, step), {}, body);
    t.is(res.status, 409, step);
    t.regex(res.body.detail, /expired/);
  }
});

test('an unreachable acquirer is 502 and the link stays payable', async (t) => {
  // 990500 cents: the sandbox answers 500 and creates nothing.
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { value: 990500 });
  const res = await pay(guid, APPROVED_CARD);
  t.is(res.status, 502);
  t.is((await PaymentLinkModel.findById(id).lean())!.status, 1);
  t.is(await PaymentClaimModel.countDocuments({ _id: id }), 0);
});

test('a reset after the acquirer charged still settles the link as paid', async (t) => {
  // 990104 cents: the sandbox makes the sale, then resets the connection without answering.
  const { guid, id } = await readyLink(shop.app.url, shop.merchant, { value: 990104 });
  const res = await pay(guid, APPROVED_CARD);
  t.is(res.status, 200);
  t.true(res.body.approved);
  t.is((await PaymentLinkModel.findById(id).lean())!.status, 2);
  t.is((await PaymentClaimModel.findById(id).lean())!.state, 'paid');
});

test('a claim of a crashed pay is taken over with the same acquirer key', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant);
  await chargingClaim(id, 'stale-key', 'stale', 3600_000);
  const res = await pay(guid, APPROVED_CARD);
  t.is(res.status, 200);
  t.true(res.body.approved);
  const claim = await PaymentClaimModel.findById(id).lean();
  t.is(claim!.attemptKey, 'stale-key');
  t.is(claim!.state, 'paid');
});

test('a fresh claim held by another pay is 409', async (t) => {
  const { guid, id } = await readyLink(shop.app.url, shop.merchant);
  await chargingClaim(id, 'running', 'run', 0);
  const res = await pay(guid, APPROVED_CARD);
  t.is(res.status, 409);
  t.regex(res.body.detail, /in progress/);
});

test('page assets come from our origin', async (t) => {
  for (const [file, type] of [
    ['checkout.js', /javascript/],
    ['checkout.css', /css/],
    ['forge.min.js', /javascript/],
  ] as const) {
    const res = await send(shop.app, 'GET', `/checkout/assets/${file}`);
    t.is(res.status, 200, file);
    t.regex(res.headers.get('content-type')!, type);
  }
  t.is((await send(shop.app, 'GET', '/checkout/assets/..%2F..%2Fpackage.json')).status, 404);
  t.is((await send(shop.app, 'GET', '/checkout/assets/index.ts')).status, 404);
  const slash = await send(shop.app, 'GET', '/checkout/some-guid/');
  t.is(slash.status, 301);
  t.is(slash.headers.get('location'), '/checkout/some-guid');
});

test.serial(
  'a pay that timed out keeps its claim even when the acquirer has no sale yet: a retry cannot charge twice',
  async (t) => {
    const { guid, id } = await readyLink(shop.app.url, shop.merchant, { value: 4100 });
    // The acquirer takes the authorization and never answers in time: for now it shows no sale.
    const sandbox = { url: getConfig().acquirer.baseUrl };
    const faulted = await call(sandbox, 'POST', '/sandbox/faults', {}, { mode: 'hang', operation: 'create' });
    t.is(faulted.status, 201);
    const first = await pay(guid, APPROVED_CARD);
    t.is(first.status, 502);
    const claim = (await PaymentClaimModel.findById(id).lean())!;
    t.is(claim?.state, 'charging', 'the claim is kept while the call may still be running');
    t.is((await pay(guid, APPROVED_CARD)).status, 409);
    // The acquirer completes the first authorization late; the sweep, once no call can still run, records it.
    await createCardSale({
      idempotencyKey: `${claim.attemptKey}-late`,
      merchantOrderId: claim.merchantOrderId,
      amountCents: 4100,
      installments: 1,
      capture: true,
      customer: { name: 'Maria Silva' },
      card: { ...clearTestCard({ number: APPROVED_CARD }), brand: 'Visa' },
    });
    await settleStalePayments(new Date(Date.now() + 10 * 60_000));
    t.is((await PaymentLinkModel.findById(id).lean())!.status, 2, 'paid by the one authorization');
    t.is((await PaymentClaimModel.findById(id).lean())!.merchantOrderId, claim.merchantOrderId);
  },
);
