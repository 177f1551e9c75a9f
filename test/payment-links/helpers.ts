/** Shared by the payment-link tests: create a link over HTTP, pay it with test cards. */
import { APPROVED_CARD_NUMBER } from '../helpers/cards';
import { bearer, type TestMerchant } from '../helpers/identity';
import test from 'ava';
import { getConfig } from '../../config';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant } from '../helpers/identity';
import { startProcess, stopAll } from '../helpers/processes';
import { callJson } from '../helpers/http';
import type { Browser, Page } from 'playwright-core';

/** Sandbox test cards (outcome = last digit): Luhn-valid Visa numbers. */
export const APPROVED_CARD = APPROVED_CARD_NUMBER;
export const DENIED_CARD = '4000000000000002';
/** Valid check digits: a CPF, a numeric CNPJ and an alphanumeric CNPJ (Receita Federal's own example). */
export const VALID_CPF = '529.982.247-25';
export const VALID_CNPJ = '11.222.333/0001-81';
export const VALID_ALPHANUMERIC_CNPJ = '12.ABC.345/01DE-35';

/**
 * Our app pointed at a sandbox process of its own, and a merchant named `companyName` on it.
 * `allowWebhookHost`: a webhook host the links may name (their events are stored; nothing delivers them).
 */
export async function startLinkApp(
  companyName: string,
  options: { allowWebhookHost?: string } = {},
): Promise<{ app: TestApp; merchant: TestMerchant }> {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  if (options.allowWebhookHost) process.env.WEBHOOK_TEST_ALLOW_HOSTS = options.allowWebhookHost;
  const app = await startTestApp();
  if (getConfig().acquirer.baseUrl !== sandbox.url)
    throw new Error('config was loaded before the test set the acquirer url');
  return { app, merchant: await newMerchant({ companyName }) };
}

/** startLinkApp before the file's tests, stopLinkApp after them: the app and merchant, once started. */
export function useLinkApp(
  companyName: string,
  options: { allowWebhookHost?: string } = {},
): { app: TestApp; merchant: TestMerchant } {
  const running = {} as { app: TestApp; merchant: TestMerchant };
  test.before(async () => {
    Object.assign(running, await startLinkApp(companyName, options));
  });
  test.after.always(() => stopLinkApp(running.app));
  return running;
}

/** Stops what startLinkApp started. */
export async function stopLinkApp(app: TestApp | undefined): Promise<void> {
  await app?.close();
  await closeAcquirerClient();
  await stopAll();
}

export const checkoutPath = (guid: string, step = '') => `/api/v1/checkout-links/${guid}${step ? `/${step}` : ''}`;

export function nextYear(): number {
  return new Date().getUTCFullYear() + 1;
}

export async function createLink(
  baseUrl: string,
  merchant: TestMerchant,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return callJson({ url: baseUrl }, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken, headers), {
    value: 1500,
    ...body,
  });
}

/** A pending link with the payer step done, ready to pay. */
export async function readyLink(baseUrl: string, merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const created = await createLink(baseUrl, merchant, { payer_name: 'Maria Silva', ...body });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const guid = created.body.payment_link_guid as string;
  const payer = await callJson(
    { url: baseUrl },
    'PATCH',
    `/api/v1/checkout-links/${guid}/payer`,
    {},
    {
      payer_name: 'Maria Silva',
      document: VALID_CPF,
    },
  );
  if (payer.status !== 200) throw new Error(`payer step failed: ${JSON.stringify(payer.body)}`);
  return { id: created.body.id as number, guid, link: created.body };
}

const PIX_PHONE = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/**
 * A payer's page (a phone) at the payment step of a card-and-PIX link with PIX chosen (the payer step done
 * at creation).
 */
export async function openPixStep(browser: Browser, appUrl: string, link: { payment_link_url: string }): Promise<Page> {
  const context = await browser.newContext(PIX_PHONE);
  const page = await context.newPage();
  await page.goto(`${appUrl}${new URL(link.payment_link_url).pathname}`);
  await page.getByRole('heading', { name: 'Quem está pagando?' }).waitFor();
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByLabel('CEP').fill('01310-100');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByRole('heading', { name: 'Pagamento', exact: true }).waitFor();
  await page.getByLabel('PIX', { exact: true }).check();
  return page;
}
