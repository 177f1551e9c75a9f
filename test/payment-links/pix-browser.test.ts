/**
 * The payer pays a link by PIX in Chromium at phone size (issue 25, items 2, 3 and 5): the QR code and
 * its copy-and-paste code shown, the page turning into the receipt once the acquirer's notice has been
 * applied (no reload), an expired code renewed, and a PIX paid after the link already was told in
 * Portuguese.
 */
import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { LinkPixChargeModel, PaymentLinkModel } from '../../src/payment-links/model';
import { PaymentModel } from '../../src/payments/model';
import { launchChromium } from '../helpers/browser';
import { ROOT } from '../helpers/processes';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';
import { sandboxPost, useSalesEnv } from '../sales/helpers';
import { checkoutPath, openPixStep, readyLink } from './helpers';

const SCREENSHOTS = path.join(ROOT, '.data', 'screenshots');
const env = useSalesEnv();
let browser: Browser;

test.before(async () => {
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});
test.after.always(async () => {
  await browser?.close();
});

/** The payer's page at the payment step with PIX chosen. */
const atPixStep = (link: { payment_link_url: string }) => openPixStep(browser, env.app.url, link);

const payCode = (qrCode: string) =>
  sandboxPost(env, '/sandbox/pix/pay-code', {
    qr_code: qrCode,
    notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}`,
  });

test('PIX paid in the bank app as the page waits: QR code, copy-and-paste, countdown, then the receipt', async (t) => {
  const { link } = await readyLink(env.app.url, env.merchant, {
    value: 8_990,
    description: 'Cesta de café',
    payment_methods: ['card', 'pix'],
  });
  const page = await atPixStep(link);
  t.false(await page.getByLabel('Número do cartão').isVisible());
  await page.getByRole('button', { name: 'Gerar QR Code PIX' }).click();
  await page.getByRole('img', { name: 'QR Code PIX para pagar este link' }).waitFor();
  const code = await page.getByLabel('PIX copia e cola').inputValue();
  t.regex(code, /^000201/);
  t.regex((await page.locator('#pix-amount').textContent())!.replace(/\s/g, ' '), /R\$ 89,90/);
  t.regex((await page.locator('#pix-countdown').textContent())!, /O código expira em \d+:\d\d/);
  t.is(await page.getByRole('status').textContent(), 'Aguardando o pagamento do PIX…');
  t.true(await page.evaluate('document.documentElement.scrollWidth <= 360'));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'checkout-pix-360.png'), fullPage: true });

  t.is((await payCode(code)).status, 200);
  await page.getByRole('heading', { name: 'Pagamento aprovado' }).waitFor({ timeout: 30_000 });
  const receipt = (await page.locator('#receipt-details').textContent())!.replace(/\s/g, ' ');
  t.regex(receipt, /Forma de pagamentoPIX/);
  t.regex(receipt, /89,90/);
  await page.context().close();
});

test('an expired QR code is renewed on the page, and a PIX paid after the card is told to the payer', async (t) => {
  const { id, link, guid } = await readyLink(env.app.url, env.merchant, {
    value: 1_500,
    payment_methods: ['card', 'pix'],
  });
  const page = await atPixStep(link);
  await page.getByRole('button', { name: 'Gerar QR Code PIX' }).click();
  await page.getByRole('status').filter({ hasText: 'Aguardando o pagamento' }).waitFor();
  const first = await page.getByLabel('PIX copia e cola').inputValue();
  const pix = await LinkPixChargeModel.findOne({ linkId: id }).lean();
  const sale = await PaymentModel.findById(pix!.saleId).lean();
  await sandboxPost(env, `/sandbox/pix/${sale!.acquirer.paymentId}/expire`);
  await LinkPixChargeModel.updateOne({ _id: pix!._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  await page.getByRole('status').filter({ hasText: 'O QR Code expirou sem pagamento' }).waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Gerar novo QR Code' }).click();
  await page.getByRole('status').filter({ hasText: 'Aguardando o pagamento' }).waitFor();
  const second = await page.getByLabel('PIX copia e cola').inputValue();
  t.not(second, first);

  // Another payer pays the link by card; this payer's PIX, paid after, is not the link's payment.
  const card = await callJson(env.app, 'PUT', checkoutPath(guid, 'pay'), {}, { encrypted_card: encryptedTestCard() });
  t.true(card.body.approved);
  await payCode(second);
  await page
    .getByRole('status')
    .filter({ hasText: 'Este link já estava pago: o valor do seu PIX será devolvido' })
    .waitFor({ timeout: 30_000 });
  // The link stays the card's; the PIX code is the second payment, on its way back.
  t.is((await PaymentLinkModel.findById(id).lean())!.payment!.method ?? 'card', 'card');
  const twice = await LinkPixChargeModel.findOne({ linkId: id }).sort({ seq: -1 }).lean();
  t.true(['paid_twice', 'returned'].includes(twice!.state));
  t.false(await page.getByRole('button', { name: /Gerar/ }).isVisible());
  await page.context().close();
});
