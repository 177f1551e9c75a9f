/**
 * Installments the payer chooses (issue 25, item 4): the link's policy, the public options route, the pay
 * step charging the chosen option (the acquirer sees its Installments and total), and what the link, the
 * receipt and the paid event then show.
 */
import '../helpers/env';
import test from 'ava';
import { getSale } from '../../src/acquirer/client';
import { WebhookEventModel } from '../../src/webhooks/model';
import {
  brl,
  installmentLabel,
  installmentOptions,
  priceTableInstallment,
  type InstallmentPolicy,
} from '../../src/platform/installments';
import { APPROVED_CARD, checkoutPath, createLink, readyLink, useLinkApp } from './helpers';
import { encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { bearer } from '../helpers/identity';

const shop = useLinkApp('Parcelas da Vila ME', { allowWebhookHost: '127.0.0.1:9' });

const pay = (guid: string, body: Record<string, unknown> = {}) =>
  callJson(
    shop.app,
    'PUT',
    checkoutPath(guid, 'pay'),
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
      ...body,
    },
  );

const options = (guid: string) => callJson(shop.app, 'GET', checkoutPath(guid, 'installments'));

const readLink = (id: number) =>
  callJson(shop.app, 'GET', `/api/v1/payment-links/${id}/`, bearer(shop.merchant.merchantToken));

test('the Price table in integer cents matches the formula, rounded half up once', (t) => {
  for (const [amount, n, rate] of [
    [100_000, 10, 199],
    [12_345, 3, 299],
    [999, 12, 1000],
    [2_147_483_647, 12, 1],
    [1, 2, 500],
  ]) {
    const i = rate / 10_000;
    const exact = (amount * i * (1 + i) ** n) / ((1 + i) ** n - 1);
    t.is(priceTableInstallment(amount, n, rate), Math.round(exact), `${amount} in ${n} at ${rate} bp`);
  }
  // R$ 1.000,00 in 10x at 1.99% a month: R$ 111,268... each, so R$ 111,27 (R$ 1.112,70 in all).
  t.is(priceTableInstallment(100_000, 10, 199), 11_127);
});

test('options: interest-free up to the free ones, the Price table after, none below the minimum', (t) => {
  const policy: InstallmentPolicy = {
    maxInstallments: 12,
    freeInstallments: 3,
    interestRateMonthlyBp: 199,
    minInstallmentValue: 2_000,
  };
  const offered = installmentOptions(10_000, policy);
  t.deepEqual(
    offered.map((o) => o.installments),
    [1, 2, 3, 4, 5],
  ); // 6x of R$ 100,00 would be under R$ 20,00
  t.deepEqual(offered[2], { installments: 3, installmentValue: 3_333, total: 10_000, interestFree: true });
  t.is(installmentLabel(offered[2]), '3x de R$ 33,33 sem juros');
  const four = offered[3];
  t.false(four.interestFree);
  t.is(four.total, four.installmentValue * 4);
  t.true(four.total > 10_000);
  t.is(installmentLabel(four), `4x de ${brl(four.installmentValue)} com juros (total ${brl(four.total)})`);
  t.is(brl(123_456_789), 'R$ 1.234.567,89');
  t.is(brl(5), 'R$ 0,05');
  // No minimum and no rate: every installment up to the most, interest-free (links before the policy).
  const plain = installmentOptions(1_000, {
    ...policy,
    freeInstallments: 12,
    interestRateMonthlyBp: 0,
    minInstallmentValue: 0,
  });
  t.is(plain.length, 12);
  t.true(plain.every((o) => o.interestFree && o.total === 1_000));
});

test('a link shows its policy, the public route lists its options, the payer pays the one chosen', async (t) => {
  const { id, guid, link } = await readyLink(shop.app.url, shop.merchant, {
    value: 30_000,
    number_of_installments: 6,
    free_installments: 3,
    interest_rate_monthly: 249,
    min_installment_value: 5_500,
    webhookUrl: 'http://127.0.0.1:9/hook',
  });
  t.like(link, {
    number_of_installments: 6,
    free_installments: 3,
    interest_rate_monthly: 249,
    min_installment_value: 5_500,
  });
  t.is(link.payment, null);

  const listed = await options(guid);
  t.is(listed.status, 200);
  const offered = listed.body.options as Array<Record<string, unknown>>;
  // 6x would be about R$ 54,00 each, under the R$ 55,00 minimum.
  t.deepEqual(
    offered.map((o) => o.installments),
    [1, 2, 3, 4, 5],
  );
  t.like(offered[2], {
    installment_value: 10_000,
    total: 30_000,
    interest_free: true,
    label: '3x de R$ 100,00 sem juros',
  });
  const five = offered[4] as { installment_value: number; total: number; interest_free: boolean };
  t.false(five.interest_free);
  t.is(five.total, five.installment_value * 5);

  t.like((await pay(guid, { installments: 6 })).body, { installments: ['Choose from 1 to 5 installments.'] });
  t.like((await pay(guid, { installments: 2.5 })).body, { installments: ['A valid integer is required.'] });
  t.like((await pay(guid, { installments: '3' })).body, { installments: ['A valid integer is required.'] });

  const paid = await pay(guid, { installments: 5 });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.true(paid.body.approved);
  const receipt = (paid.body.checkout as { receipt: Record<string, unknown> }).receipt;
  t.like(receipt, {
    amount: 30_000,
    installments: 5,
    installmentValue: five.installment_value,
    total: five.total,
    interestFree: false,
  });

  const read = await readLink(id);
  t.deepEqual(read.body.payment, {
    installments: 5,
    installment_value: five.installment_value,
    total: five.total,
    interest_free: false,
  });
  // The acquirer charged the chosen installments and the total with interest.
  const stored = await import('../../src/payment-links/model').then((m) => m.PaymentLinkModel.findById(id).lean());
  const sale = await getSale(stored!.payment!.acquirerPaymentId);
  t.is(sale?.amountCents, five.total);
  const sent = (sale?.raw.Payment ?? sale?.raw) as { Installments?: number; Interest?: string };
  t.like(sent, { Installments: 5, Interest: 'ByMerchant' });
  // The merchant's event says the method, the choice and the total.
  const event = await WebhookEventModel.findOne({ linkId: id, type: 'payment_link.paid' }).lean();
  t.like((JSON.parse(event!.body) as { data: { payment: unknown } }).data.payment, {
    method: 'card',
    installments: 5,
    total: five.total,
  });
});

test("a pay step naming no installments charges the link's number, as before the payer could choose", async (t) => {
  const { id, guid } = await readyLink(shop.app.url, shop.merchant, { value: 9_000, number_of_installments: 3 });
  const paid = await pay(guid);
  t.true(paid.body.approved);
  t.deepEqual((await readLink(id)).body.payment, {
    installments: 3,
    installment_value: 3_000,
    total: 9_000,
    interest_free: true,
  });
});

test('concurrent pays choosing different installments: one charges, and it charges its own choice', async (t) => {
  const { id, guid } = await readyLink(shop.app.url, shop.merchant, {
    value: 12_000,
    number_of_installments: 4,
    free_installments: 1,
    interest_rate_monthly: 300,
  });
  const listed = (await options(guid)).body.options as Array<{ installments: number; total: number }>;
  const answers = await Promise.all([1, 2, 3, 4].map((installments) => pay(guid, { installments })));
  const approved = answers.filter((a) => a.status === 200 && a.body.approved);
  t.is(approved.length, 1);
  t.true(answers.every((a) => a === approved[0] || a.status === 409));
  const chosen = (approved[0].body.checkout as { receipt: { installments: number; total: number } }).receipt;
  t.is(chosen.total, listed.find((o) => o.installments === chosen.installments)!.total);
  t.like((await readLink(id)).body.payment, { installments: chosen.installments, total: chosen.total });
});

test('link creation refuses a bad policy, naming each field', async (t) => {
  const created = await createLink(shop.app.url, shop.merchant, {
    number_of_installments: 3,
    free_installments: 4,
    interest_rate_monthly: 1001,
    min_installment_value: -1,
  });
  t.is(created.status, 400);
  t.deepEqual(Object.keys(created.body).sort(), [
    'free_installments',
    'interest_rate_monthly',
    'min_installment_value',
  ]);
  const tooMany = await createLink(shop.app.url, shop.merchant, { number_of_installments: 3, free_installments: 4 });
  t.deepEqual(tooMany.body, {
    free_installments: ['Ensure this value is less than or equal to number_of_installments.'],
  });
  const fraction = await createLink(shop.app.url, shop.merchant, {
    interest_rate_monthly: 1.5,
    free_installments: 'x',
  });
  t.deepEqual(Object.keys(fraction.body).sort(), ['free_installments', 'interest_rate_monthly']);
  // A rate without free installments named: one installment interest-free, the rest with interest.
  const rated = await createLink(shop.app.url, shop.merchant, {
    number_of_installments: 3,
    interest_rate_monthly: 100,
  });
  t.like(rated.body, { free_installments: 1, interest_rate_monthly: 100, min_installment_value: 0 });
  t.is((await options(rated.body.payment_link_guid as string)).body.options[1].interest_free, false);
  t.is((await options('no-such-guid')).status, 404);
});
