import '../helpers/env';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import test from 'ava';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { getConfig } from '../../config';
import { launchChromium } from '../helpers/browser';
import { call } from '../helpers/http';
import { deadline, ROOT, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { CHALLENGE_CODE, THREE_D_SECURE_CARDS } from '../helpers/three-d-secure-cards';
import {
  closeAcquirerClient,
  createThreeDSecureToken,
  threeDSecureScriptUrl,
  validateAuthenticationResult,
} from '../../src/acquirer/client';

// The sandbox's script in Chromium, loaded by a merchant's page of another origin whose Content-Security-Policy
// allows the authentication service's origin (for its script, its calls and the challenge frame) and nothing
// else: what the checkout's policy will have to allow (docs/design/three-d-secure.md).

const SCREENSHOTS = path.join(ROOT, '.data', 'screenshots');
const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };

let sandbox: RunningProcess;
let browser: Browser;
let shop: http.Server;
let shopUrl: string;

test.before(async () => {
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_3DS_URL = `${sandbox.url}/mpi`;
  if (getConfig().acquirer.threeDSecure.url !== `${sandbox.url}/mpi`)
    throw new Error('config was loaded before the test set the authentication service url');
  shop = http.createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://shop').searchParams;
    const nonce = `n${Math.random().toString(36).slice(2)}`;
    const service = new URL(sandbox.url).origin;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy':
        `default-src 'none'; script-src 'nonce-${nonce}' ${service}; connect-src ${service}; ` +
        `frame-src ${service}; style-src 'none'; img-src 'none'; base-uri 'none'; form-action 'none'`,
    });
    res.end(shopPage(nonce, query));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});
test.after.always(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await closeAcquirerClient();
  await stopAll();
});

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A merchant's page with the script's hidden fields, recording every callback and CSP violation. */
function shopPage(nonce: string, query: URLSearchParams): string {
  const value = (name: string, fallback: string) => escape(query.get(name) ?? fallback);
  const fields = {
    auth: value('auth', 'true'),
    accesstoken: value('token', ''),
    ordernumber: 'PL42',
    currency: 'BRL',
    totalamount: value('amount', '15990'),
    installments: '1',
    paymentmethod: value('method', 'credit'),
    cardnumber: value('card', ''),
    cardexpirationmonth: '12',
    cardexpirationyear: '2031',
    billto_contactname: 'Carla Souza',
    billto_email: 'carla@example.com',
  };
  const callbacks = [
    'onReady',
    'onSuccess',
    'onFailure',
    'onUnenrolled',
    'onDisabled',
    'onError',
    'onUnsupportedBrand',
  ];
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Floricultura Ipê</title>
<script nonce="${nonce}">
  window.outcomes = [];
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    violations.push(e.violatedDirective + ' ' + e.blockedURI));
  function bpmpi_config() {
    const config = { Environment: ${JSON.stringify(query.get('env') ?? 'SDB')}, Debug: false };
    for (const name of ${JSON.stringify(callbacks)}) config[name] = (payload) => outcomes.push({ name, payload });
    return config;
  }
  document.addEventListener('DOMContentLoaded', () =>
    document.getElementById('pay').addEventListener('click', () => bpmpi_authenticate()));
</script></head>
<body><main><h1>Floricultura Ipê</h1>
${Object.entries(fields)
  .map(([name, v]) => `<input type="hidden" class="bpmpi_${name}" value="${v}">`)
  .join('\n')}
<button id="pay" type="button">Pagar</button></main>
<script src="${escape(threeDSecureScriptUrl())}"></script>
</body></html>`;
}

interface Outcome {
  name: string;
  payload?: Record<string, string | null>;
}

const outcomes = (page: Page): Promise<Outcome[]> => page.evaluate('window.outcomes');

/** Waits until the page has had `count` callbacks, and gives them all. */
async function callbacks(page: Page, count: number): Promise<Outcome[]> {
  await page.waitForFunction((n) => (globalThis as any).outcomes.length >= n, count, { timeout: deadline(20_000) });
  return outcomes(page);
}

/** Opens the shop's page for `card` with a new token, waits for onReady and presses Pagar. */
async function pay(page: Page, card: string, params: Record<string, string> = {}): Promise<void> {
  const { accessToken } = await createThreeDSecureToken({
    establishmentCode: '1234567890',
    merchantName: 'Floricultura Ipe',
    mcc: '5992',
  });
  await page.goto(`${shopUrl}/checkout?${new URLSearchParams({ token: accessToken, card, ...params })}`);
  const [ready] = await callbacks(page, 1);
  if (ready.name !== 'onReady') throw new Error(`not ready: ${JSON.stringify(ready)}`);
  await page.getByRole('button', { name: 'Pagar' }).click();
}

async function newPage(options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() };
}

test('a frictionless card is authenticated through the script under a strict Content-Security-Policy', async (t) => {
  const { page, errors, close } = await newPage();
  await pay(page, '4000000000000051');
  const [, done] = await callbacks(page, 2);
  t.is(done.name, 'onSuccess');
  t.deepEqual(Object.keys(done.payload!).sort(), ['Cavv', 'Eci', 'ReferenceId', 'Version', 'Xid']);
  const { Cavv, Xid, Eci, Version, ReferenceId } = done.payload!;
  const result = { eci: Eci, cavv: Cavv, xid: Xid, version: Version, reference_id: ReferenceId };
  t.like(validateAuthenticationResult(result, 'Visa'), { ok: true, value: { eci: '05', version: '2.2.0' } });
  t.deepEqual(await page.evaluate('window.violations'), []);
  t.deepEqual(errors, []);
  const stored = await call(sandbox, 'GET', `/mpi/sandbox/authentications/${ReferenceId}`);
  t.like(stored.body, { amountCents: 15990, paymentMethod: 'credit', cavv: Cavv });
  await close();
});

test('every card without a challenge reaches its callback with what the real script gives it', async (t) => {
  const { page, errors, close } = await newPage();
  const expected: Record<string, [string, string[]]> = {
    success: ['onSuccess', ['Cavv', 'Eci', 'ReferenceId', 'Version', 'Xid']],
    failure: ['onFailure', ['Eci', 'ReferenceId', 'Version', 'Xid']],
    unenrolled: ['onUnenrolled', ['Eci', 'ReferenceId', 'Version', 'Xid']],
    error: ['onError', ['Eci', 'ReferenceId', 'ReturnCode', 'ReturnMessage', 'Xid']],
    unsupportedBrand: ['onUnsupportedBrand', ['ReturnCode', 'ReturnMessage']],
  };
  const cards = THREE_D_SECURE_CARDS.filter((card) => card.status !== 'challenge' && card.scenario !== 'frictionless');
  for (const card of cards) {
    const label = `${card.brand} ${card.scenario}`;
    await pay(page, card.number, { method: card.brand === 'Elo' ? 'debit' : 'credit' });
    const [, done] = await callbacks(page, 2);
    const [name, fields] = expected[card.status];
    t.is(done.name, name, label);
    t.deepEqual(Object.keys(done.payload!).sort(), fields, label);
    if (card.eci) t.is(done.payload!.Eci, card.eci, label);
    if (card.status === 'error') t.is(done.payload!.ReturnCode, '231', label);
    if (card.status === 'unsupportedBrand') t.is(done.payload!.ReturnCode, 'MPI600', label);
  }
  t.deepEqual(await page.evaluate('window.violations'), []);
  t.deepEqual(errors, []);
  await close();
});

test('a challenge shows inside a phone-sized page and passes with the code typed', async (t) => {
  const { page, errors, close } = await newPage(PHONE);
  await pay(page, '4000000000000101');
  const frame = page.frameLocator('iframe[title="Autenticação do seu banco"]');
  const code = frame.getByLabel('Código de verificação');
  await code.waitFor({ timeout: deadline(20_000) });
  // Inside the 360 px page: nothing wider than the screen, in the page or in the bank's frame.
  const box = (await page.locator('.bpmpi_challenge iframe').boundingBox())!;
  t.true(box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  t.true(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'));
  const bank = page.frames().find((f) => f.url().includes('/mpi/challenge/'))!;
  t.true(await bank.evaluate('document.documentElement.scrollWidth <= window.innerWidth'));
  t.regex((await frame.locator('main').textContent())!, /R\$\s159,90[\s\S]*final\s+0101/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'three-d-secure-challenge.png') });
  t.is((await outcomes(page)).length, 1, 'nothing answered while the payer reads the code');

  await code.fill(CHALLENGE_CODE);
  await frame.getByRole('button', { name: 'Confirmar' }).click();
  const [, done] = await callbacks(page, 2);
  t.is(done.name, 'onSuccess');
  t.is(done.payload!.Eci, '05');
  t.regex(done.payload!.Cavv!, /^[A-Za-z0-9+/]{27}=$/);
  t.is(await page.locator('.bpmpi_challenge').count(), 0, 'the frame is gone');
  t.deepEqual(await page.evaluate('window.violations'), []);
  t.deepEqual(errors, []);
  await close();
});

test('a wrong code or a cancel fails the challenge, with no cavv', async (t) => {
  const { page, close } = await newPage(PHONE);
  for (const [card, answer] of [
    ['5100000000000131', 'wrong code'],
    ['4000000000000101', 'cancel'],
  ]) {
    await pay(page, card);
    const frame = page.frameLocator('iframe[title="Autenticação do seu banco"]');
    if (answer === 'cancel') {
      await frame.getByLabel('Código de verificação').fill(CHALLENGE_CODE);
      await frame.getByRole('button', { name: 'Cancelar' }).click();
    } else {
      await frame.getByLabel('Código de verificação').fill('4321');
      await frame.getByLabel('Código de verificação').press('Enter');
    }
    const [, done] = await callbacks(page, 2);
    t.is(done.name, 'onFailure', answer);
    t.is(done.payload!.Eci, card.startsWith('5') ? '00' : '07', answer);
    t.false('Cavv' in done.payload!, answer);
    t.is(await page.locator('.bpmpi_challenge').count(), 0);
  }
  await close();
});

test('a reused or expired token, authentication off or the wrong environment authenticate nothing', async (t) => {
  const { page, close } = await newPage();
  await pay(page, '4000000000000051');
  t.is((await callbacks(page, 2))[1].name, 'onSuccess');
  // The same page (so the same token) asks again.
  await page.getByRole('button', { name: 'Pagar' }).click();
  const reused = (await callbacks(page, 3))[2];
  t.like(reused, { name: 'onError', payload: { ReturnCode: 'MPI401', ReturnMessage: 'Access token already used' } });

  const { accessToken } = await createThreeDSecureToken({
    establishmentCode: '1234567890',
    merchantName: 'L',
    mcc: '5992',
  });
  await call(sandbox, 'POST', '/mpi/sandbox/tokens/expire', {}, { access_token: accessToken });
  await page.goto(`${shopUrl}/checkout?${new URLSearchParams({ token: accessToken, card: '4000000000000051' })}`);
  t.like((await callbacks(page, 1))[0], { name: 'onError', payload: { ReturnMessage: 'Access token expired' } });

  // A page that fills the token once loaded calls bpmpi_load; with authentication off nothing is asked.
  await page.goto(`${shopUrl}/checkout?${new URLSearchParams({ card: '4000000000000051', auth: 'false' })}`);
  await page.evaluate('window.bpmpi_load()');
  await page.getByRole('button', { name: 'Pagar' }).click();
  t.deepEqual(
    (await callbacks(page, 2)).map((o) => o.name),
    ['onReady', 'onDisabled'],
  );

  await page.goto(`${shopUrl}/checkout?${new URLSearchParams({ token: 'x', card: '4000000000000051', env: 'PRD' })}`);
  t.like((await callbacks(page, 1))[0], { name: 'onError', payload: { ReturnCode: 'MPI400' } });
  await close();
});
