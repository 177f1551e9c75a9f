import '../helpers/env';
import os from 'node:os';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { bearer, newMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { freePort, startProcess, stopAll } from '../helpers/processes';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';

/** An IPv4 address of this machine other than loopback, as a phone on the same network would reach it. */
function lanAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

const address = lanAddress();
let browser: Browser;
let service: { url: string };

test.before(async () => {
  if (!address) return;
  await connectDatabase(process.env.MONGODB_URI!);
  const port = await freePort();
  service = { url: `http://${address}:${port}` };
  // As the docs tell a developer opening the checkout on a phone: every address, and the public URL at this one.
  await startProcess('web', { HOST: '0.0.0.0', PORT: String(port), PUBLIC_BASE_URL: service.url });
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await stopAll();
  await disconnectDatabase();
});

// A machine with no network but loopback cannot show it; every machine the suite runs on so far has one.
(address ? test : test.skip)('the checkout page and Swagger UI render over plain HTTP at a LAN address', async (t) => {
  const merchant = await newMerchant({ companyName: 'Padaria da Rede LTDA' });
  const link = await callJson(service, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
    value: 2590,
  });
  t.is(link.status, 201);
  t.true(link.body.payment_link_url.startsWith(`${service.url}/checkout/`));

  const page = await browser.newPage();
  const failed: string[] = [];
  // Ours only: Swagger UI's validator badge (validator.swagger.io) is refused by img-src 'self' on any host.
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(service.url)) failed.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  await page.goto(link.body.payment_link_url);
  // The heading and the merchant's name come from the page's script and its API call: the assets loaded.
  await page.getByRole('heading', { name: 'Quem está pagando?' }).waitFor({ timeout: 10_000 });
  t.is(await page.locator('#merchant-name').textContent(), 'Padaria da Rede LTDA');

  await page.goto(`${service.url}/api/docs/`);
  await page.locator('.swagger-ui .info .title').waitFor({ timeout: 10_000 });
  t.deepEqual(failed, []);
});
