/**
 * The payer's authorisation page of a Pix Automático mandate (issue 29, part 6), in Chromium at phone
 * size: what is authorised (merchant, plan, amount and period in pt-BR, first due date, journey 3's
 * payment now), the QR code and its copy button, then the state the acquirer confirmed, shown without a
 * reload: approved, rejected, expired, cancelled. Unknown or garbled addresses are 404s. Real processes:
 * the sandbox (the payer's bank), the web process and a worker applying the acquirer's notices.
 */
import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { call, callJson } from '../helpers/http';
import { ROOT, type RunningProcess } from '../helpers/processes';
import { createPixSubscription, PIX_FIRST_DUE_DATE, PIX_PAYER, startPixStack, stopPixStack } from './support';

const SCREENSHOTS = path.join(ROOT, '.data', 'screenshots');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
const PAYER_CPF = PIX_PAYER.identity;

let sandbox: RunningProcess;
let web: RunningProcess;
let merchant: TestMerchant;
let browser: Browser;

test.before(async () => {
  ({ sandbox, web } = await startPixStack());
  merchant = await newMerchant({ companyName: 'Clube do Café Ipê LTDA' });
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
  await stopPixStack();
});

const api = (method: string, urlPath: string, body?: unknown) =>
  callJson(web, method, urlPath, bearer(merchant.merchantToken), body);
const shownDay = PIX_FIRST_DUE_DATE.split('-').reverse().join('/');

const createPix = (overrides: Record<string, unknown> = {}, pix: Record<string, unknown> = {}) =>
  createPixSubscription(web, merchant, { description: 'Café especial mensal', ...overrides }, pix);

/** The payer's bank acts on the QR code it read. */
const payer = (action: 'approve' | 'reject' | 'expire', qrCodeText: string, body = {}) =>
  callJson(sandbox, 'POST', `/sandbox/pix-automatico/by-code/${action}`, {}, { qr_code: qrCodeText, ...body });

/** The page as the payer opens it: the mandate's authorizationUrl, on the web process's origin. */
async function openPage(authorizationUrl: string): Promise<Page> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(`${web.url}${new URL(authorizationUrl).pathname}`);
  return page;
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
const noHorizontalScroll = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= 390');

test.serial(
  'journey 2: the QR code, copy-and-paste, amount and period in pt-BR, approved without reload',
  async (t) => {
    const sub = await createPix();
    const url: string = sub.mandate.authorizationUrl;
    t.regex(url, /\/checkout\/pix-automatico\/[0-9a-f-]{36}$/);
    const page = await openPage(url);
    const consoleErrors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await page.getByRole('heading', { name: 'Autorize o Pix Automático' }).waitFor();
    t.is(await text(page, '#merchant-name'), 'Clube do Café Ipê LTDA');
    t.is((await text(page, '#amount')).replace(/\s/g, ' '), 'R$ 49,90 por mês');
    t.is(await text(page, '#plan'), 'Café especial mensal');
    t.is(await text(page, '#period'), `Cobrança mensal · primeiro vencimento em ${shownDay}`);
    t.is(await text(page, '#payer'), 'Pagador: Joana Pagadora · ***.982.***-**');
    t.false(await page.locator('#pay-now').isVisible(), 'journey 2 pays nothing now');
    t.is(
      await page
        .getByRole('status')
        .textContent()
        .then((s) => s?.trim()),
      'Aguardando a sua autorização no app do banco…',
    );

    const qr = page.getByRole('img', { name: 'QR Code para autorizar o Pix Automático' });
    await qr.waitFor();
    t.true(
      await qr.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0),
      'the QR image is drawn',
    );
    const code = await page.getByLabel('PIX copia e cola').inputValue();
    t.is(code, sub.mandate.qrCodeText);
    t.regex(await text(page, '#pix-countdown'), /^O código expira em \d+:\d\d:\d\d$/);

    // Copy: into the clipboard where the browser allows it, else left selected for the payer to copy.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    await page.getByRole('button', { name: 'Copiar código' }).click();
    await page
      .locator('#pix-status')
      .filter({ hasText: /Código copiado|Selecione o código/ })
      .waitFor();
    const selected = await page
      .getByLabel('PIX copia e cola')
      .evaluate((area: { value: string; selectionStart: number; selectionEnd: number }) =>
        area.value.slice(area.selectionStart, area.selectionEnd),
      );
    t.is(selected, code, 'the whole code is selected');
    if ((await text(page, '#pix-status')).startsWith('Código copiado'))
      t.is(await page.evaluate('navigator.clipboard.readText()'), code);

    t.true(await noHorizontalScroll(page), 'no horizontal scroll at 390 px');
    // Nothing secret: the payer's document masked, no merchant, subscription or acquirer ids.
    const html = await page.content();
    t.false(html.includes(PAYER_CPF));
    t.false(html.includes(sub.mandate.acquirerRecurrenceId));
    const read = await callJson(web, 'GET', `/api/v1/checkout-mandates/${url.split('/').pop()}`);
    t.is(read.status, 200);
    // The QR code is the acquirer's (its EMV text names the recurrence, as the bank app reads it); nothing else is.
    const { qrCodeText, qrCodeImage, ...shown } = read.body;
    t.is(qrCodeText, code);
    t.regex(qrCodeImage, /^data:image\/png;base64,/);
    const rest = JSON.stringify(shown);
    for (const secret of [PAYER_CPF, sub.mandate.acquirerRecurrenceId, String(merchant.merchantId), String(sub.id)])
      t.false(rest.includes(`"${secret}"`) || rest.includes(`:${secret},`), `the public read shows no ${secret}`);
    t.deepEqual(
      Object.keys(shown).filter((key) => /id$/i.test(key)),
      [],
      'no ids at all',
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pix-automatico-waiting-390.png'), fullPage: true });

    t.is((await payer('approve', code)).status, 200);
    await page.getByRole('heading', { name: 'Autorização concluída' }).waitFor({ timeout: 30_000 });
    // Said once, by the outcome's heading (which takes the focus), not again by the status line above it.
    const onScreen = await page.locator('body').innerText();
    t.is(onScreen.split('Autorização concluída').length - 1, 1, onScreen);
    t.is(await page.evaluate('document.activeElement && document.activeElement.id'), 'outcome-title');
    t.false(await page.getByRole('img', { name: /QR Code/ }).isVisible(), 'the used QR code is gone');
    t.regex(await text(page, '#outcome-text'), /serão pagas pelo seu banco em cada vencimento/);
    t.true(await noHorizontalScroll(page));
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pix-automatico-approved-390.png'), fullPage: true });
    t.deepEqual(consoleErrors, []);
    await page.context().close();
  },
);

test.serial('journey 3 with a variable amount: "até", pay now, then rejected by the payer', async (t) => {
  const sub = await createPix({ value: 3000, billingCycle: 'weekly' }, { journey: 3, maximumValue: 9000 });
  const page = await openPage(sub.mandate.authorizationUrl);
  await page.getByRole('heading', { name: 'Autorize o Pix Automático' }).waitFor();
  t.is((await text(page, '#amount')).replace(/\s/g, ' '), 'Até R$ 90,00 por semana');
  t.is(await text(page, '#period'), `Cobrança semanal · primeiro vencimento em ${shownDay}`);
  t.is((await text(page, '#pay-now')).replace(/\s/g, ' '), 'Pague agora R$ 30,00 e autorize as próximas');
  t.true(await noHorizontalScroll(page));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'pix-automatico-journey3-390.png'), fullPage: true });

  t.is((await payer('reject', sub.mandate.qrCodeText, { reason: 'Não reconheço' })).status, 200);
  await page.getByRole('heading', { name: 'Autorização recusada' }).waitFor({ timeout: 30_000 });
  t.regex(await text(page, '#outcome-text'), /nada será cobrado/);
  t.is((await page.locator('body').innerText()).split('Autorização recusada').length - 1, 1);
  await page.context().close();
});

test.serial('a QR code that expires, and a mandate the merchant cancels, are shown as such', async (t) => {
  const expiring = await createPix();
  const page = await openPage(expiring.mandate.authorizationUrl);
  await page.getByRole('heading', { name: 'Autorize o Pix Automático' }).waitFor();
  t.is((await payer('expire', expiring.mandate.qrCodeText)).status, 200);
  await page.getByRole('heading', { name: 'O QR Code expirou' }).waitFor({ timeout: 30_000 });
  t.false(await page.locator('#pix-panel').isVisible());
  await page.context().close();

  const cancelled = await createPix();
  await payer('approve', cancelled.mandate.qrCodeText);
  const approved = await openPage(cancelled.mandate.authorizationUrl);
  await approved.getByRole('heading', { name: 'Autorização concluída' }).waitFor({ timeout: 30_000 });
  t.is((await api('PUT', `/api/v1/subscriptions/${cancelled.id}/cancel/`)).status, 200);
  await approved.getByRole('heading', { name: 'Autorização cancelada' }).waitFor({ timeout: 30_000 });
  t.regex(await text(approved, '#outcome-text'), /A loja cancelou esta autorização/);
  await approved.context().close();
});

test('an unknown or garbled address is a 404, as a page and as JSON, with nothing of the server in it', async (t) => {
  const unknown = '7d1f4a3c-0b6e-4c1a-9a53-2f0e8d6b1c44';
  for (const token of [unknown, 'x', 'x'.repeat(500), '..%2F..%2Fetc', '%00', '%3Cscript%3E', "'%20OR%201=1"]) {
    const page = await call(web, 'GET', `/checkout/pix-automatico/${token}`);
    // A NUL anywhere in a request is refused before any route (src/http/nul-characters.ts): 400, as JSON.
    if (token === '%00') t.is(page.status, 400);
    else {
      t.is(page.status, 404, `page ${token}`);
      t.regex(page.headers.get('content-type') ?? '', /text\/html/);
    }
    const read = await call(web, 'GET', `/api/v1/checkout-mandates/${token}`);
    t.true(read.status === 404 || read.status === 400, `read ${token}: ${read.status}`);
    t.false(/at .*\.ts:\d+|Error:|stack/i.test(read.text), `no stack trace for ${token}`);
  }
  const browserPage = await (await browser.newContext(PHONE)).newPage();
  await browserPage.goto(`${web.url}/checkout/pix-automatico/${unknown}`);
  await browserPage.getByRole('status').filter({ hasText: 'Autorização não encontrada' }).waitFor();
  t.false(await browserPage.locator('#summary').isVisible());
  await browserPage.context().close();
});
