/**
 * A failing acquirer does not multiply a public link's calls (issue 39 item 5): after a failed PIX code the
 * link waits before its next one (503 with Retry-After, no acquirer call), longer for each failure in a row,
 * and forgets its failures once a code is made; another link is not held by it. The acquirer is the sandbox
 * process, failing by its faults control; its calls are counted there.
 */
import '../helpers/env';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { getConfig } from '../../config';
import { assertPixMayBeMade, pixCodeFailed, pixCodeMade } from '../../src/checkout/pix-backoff';
import { PIX_UNAVAILABLE } from '../../src/checkout/payer-messages';
import { getProducerConnection } from '../../src/platform/redis';
import { ApiError } from '../../src/platform/errors';
import { launchChromium } from '../helpers/browser';
import { eventually } from '../helpers/processes';
import { call, callJson } from '../helpers/http';
import { useSalesEnv } from '../sales/helpers';
import { checkoutPath, openPixStep, readyLink } from './helpers';

// Short waits, so the test waits one of them for real (long enough for five POSTs on a loaded machine):
// 3 s, then 6 s, then the 10 s cap.
process.env.CHECKOUT_PIX_BACKOFF_MS = '3000';
process.env.CHECKOUT_PIX_BACKOFF_MAX_MS = '10000';
const env = useSalesEnv();
let browser: Browser | undefined;
test.after.always(() => browser?.close());

const startPix = (guid: string) => callJson(env.app, 'POST', checkoutPath(guid, 'pix'));
const pixLink = () => readyLink(env.app.url, env.merchant, { value: 3_100, payment_methods: ['pix'] });
const sandbox = (method: string, path: string, body?: unknown) => callJson(env.sandbox, method, path, {}, body);
/** What is left of the create fault the test set: each create call that reached the sandbox took one. */
const createFaultsLeft = async () =>
  ((await sandbox('GET', '/sandbox/faults')).body.faults as { operation: string; remaining: number }[])
    .filter((fault) => fault.operation === 'create')
    .reduce((left, fault) => left + fault.remaining, 0);
const salesCreated = async () => (await sandbox('GET', '/sandbox/stats')).body.salesCreated as number;
const retryAfterOf = (answer: { headers: Headers }) => Number(answer.headers.get('retry-after'));
const failCreates = async () =>
  (await sandbox('POST', '/sandbox/faults', { mode: 'error', operation: 'create', count: 50 })).status;
const healAcquirer = async () => (await call(env.sandbox, 'DELETE', '/sandbox/faults')).status;

// Serial: the sandbox's faults take the next create calls, whoever makes them.
test.serial('N POSTs against a failing acquirer make one call; the link waits, others do not', async (t) => {
  const held = await pixLink();
  const other = await pixLink();
  t.is(await failCreates(), 201);
  try {
    // The payer (or anyone) asking again and again: only the first reaches the acquirer.
    const failed = await startPix(held.guid);
    const meanwhile = [];
    for (let i = 0; i < 5; i++) meanwhile.push(await startPix(held.guid));
    t.is(await createFaultsLeft(), 49, 'six POSTs of one link made one acquirer call');
    t.is(failed.status, 502, JSON.stringify(failed.body));
    t.is(retryAfterOf(failed), 3);
    for (const answer of meanwhile) {
      t.is(answer.status, 503, JSON.stringify(answer.body));
      t.true(retryAfterOf(answer) >= 1 && retryAfterOf(answer) <= 3);
      t.is(answer.body.payerMessage, PIX_UNAVAILABLE);
      t.regex(answer.body.detail, /no new one is made for [123] s/);
    }
    // Another link is not held by it: it asks the acquirer itself (and fails too).
    t.is((await startPix(other.guid)).status, 502);
    t.is(await createFaultsLeft(), 48);
  } finally {
    t.is(await healAcquirer(), 204);
  }
  // The acquirer healthy again: once the wait is over the link makes its code, with one call.
  const before = await salesCreated();
  const made = (await eventually(
    async () => {
      const answer = await startPix(held.guid);
      if (answer.status !== 503) return answer;
      t.true(retryAfterOf(answer) >= 1);
      return null;
    },
    15_000,
    250,
  ))!;
  t.is(made.status, 200, JSON.stringify(made.body));
  t.is(made.body.status, 'waiting');
  t.is(await salesCreated(), before + 1);
});

test.serial('the wait doubles with each failure in a row up to its cap, and a code made forgets it', async (t) => {
  const linkId = 900_000_000 + Math.floor(Math.random() * 1000);
  const start = new Date('2026-03-01T12:00:00Z');
  const at = (ms: number) => new Date(start.getTime() + ms);
  const refusal = async (when: Date) => {
    const error = await t.throwsAsync(assertPixMayBeMade(linkId, when), { instanceOf: ApiError });
    t.is(error!.status, 503);
    return Number(error!.headers['Retry-After']);
  };

  let backoff = await assertPixMayBeMade(linkId, start);
  t.is(backoff.failures, 0);
  t.is(await pixCodeFailed(linkId, backoff, start), 3);
  t.is(await refusal(at(1)), 3);
  t.is(await refusal(at(2_500)), 1);
  backoff = await assertPixMayBeMade(linkId, at(3_000));
  t.is(backoff.failures, 1);
  t.is(await pixCodeFailed(linkId, backoff, at(3_000)), 6);
  t.is(await refusal(at(8_999)), 1);
  backoff = await assertPixMayBeMade(linkId, at(9_000));
  t.is(await pixCodeFailed(linkId, backoff, at(9_000)), 10, 'capped');
  backoff = await assertPixMayBeMade(linkId, at(19_000));
  t.is(backoff.failures, 3);
  t.is(await pixCodeFailed(linkId, backoff, at(19_000)), 10, 'capped');
  // Forgotten by Redis a quiet cap past the wait.
  const key = `${getConfig().queuePrefix}:checkout-pix-backoff:${linkId}`;
  const ttl = await getProducerConnection().pttl(key);
  t.true(ttl > 10_000 && ttl <= 20_000, `ttl ${ttl}`);

  backoff = await assertPixMayBeMade(linkId, at(29_000));
  await pixCodeMade(linkId, backoff);
  t.is(await getProducerConnection().exists(key), 0);
  backoff = await assertPixMayBeMade(linkId, at(29_001));
  t.is(backoff.failures, 0);
  t.is(await pixCodeFailed(linkId, backoff, at(29_001)), 3, 'from the first wait again');
});

test.serial('the page says why and counts the wait down on its button, then makes the code', async (t) => {
  browser = await launchChromium();
  const { guid, link } = await readyLink(env.app.url, env.merchant, { value: 4_100, payment_methods: ['card', 'pix'] });
  const page = await openPixStep(browser, env.app.url, link);
  const button = page.locator('#pix-start');
  t.is(await failCreates(), 201);
  try {
    // Another payer of the link met the failure a moment ago; this payer's ask is answered by the wait.
    t.is((await startPix(guid)).status, 502);
    await button.click();
    await t.notThrowsAsync(button.filter({ hasText: /^Aguarde [1-3] s$/ }).waitFor());
    t.true(await button.isDisabled());
    t.regex(
      (await page.locator('#pix-status').textContent())!,
      new RegExp(`^${PIX_UNAVAILABLE.replace(/\./g, '\\.')} Tente novamente em [1-3] segundos?\\.$`),
    );
    t.is(await createFaultsLeft(), 49, 'the page asked nobody');
  } finally {
    t.is(await healAcquirer(), 204);
  }
  // Clickable again once the wait is over (the click waits for it), and the code is made.
  await button.click({ timeout: 15_000 });
  await t.notThrowsAsync(page.locator('#pix-code').waitFor({ state: 'visible' }));
  t.is(await button.textContent(), 'Gerar QR Code PIX');
  await page.context().close();
});
