/**
 * A failing acquirer does not multiply a public link's calls (issue 39 item 5): after a failed PIX code the
 * link waits before its next one (503 with Retry-After, no acquirer call), longer for each failure in a row,
 * and forgets its failures once a code is made; another link is not held by it. The acquirer is the sandbox
 * process, failing by its faults control; its calls are counted there.
 */
import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { assertPixMayBeMade, pixCodeFailed, pixCodeMade } from '../../src/checkout/pix-backoff';
import { PIX_UNAVAILABLE } from '../../src/checkout/payer-messages';
import { getProducerConnection } from '../../src/platform/redis';
import { ApiError } from '../../src/platform/errors';
import { eventually } from '../helpers/processes';
import { call, callJson } from '../helpers/http';
import { useSalesEnv } from '../sales/helpers';
import { checkoutPath, readyLink } from './helpers';

// Short waits, so the test waits one of them for real: 2 s, then 4 s, then the 6 s cap.
process.env.CHECKOUT_PIX_BACKOFF_MS = '2000';
process.env.CHECKOUT_PIX_BACKOFF_MAX_MS = '6000';
const env = useSalesEnv();

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

// Serial: the sandbox's faults take the next create calls, whoever makes them.
test.serial('N POSTs against a failing acquirer make one call; the link waits, others do not', async (t) => {
  const held = await pixLink();
  const other = await pixLink();
  t.is((await sandbox('POST', '/sandbox/faults', { mode: 'error', operation: 'create', count: 50 })).status, 201);
  try {
    const failed = await startPix(held.guid);
    t.is(failed.status, 502, JSON.stringify(failed.body));
    t.is(retryAfterOf(failed), 2);
    // Every payer asking meanwhile, at once: none reaches the acquirer.
    const meanwhile = await Promise.all(Array.from({ length: 5 }, () => startPix(held.guid)));
    for (const answer of meanwhile) {
      t.is(answer.status, 503, JSON.stringify(answer.body));
      t.true(retryAfterOf(answer) >= 1 && retryAfterOf(answer) <= 2);
      t.is(answer.body.payerMessage, PIX_UNAVAILABLE);
      t.regex(answer.body.detail, /no new one is made for [12] s/);
    }
    t.is(await createFaultsLeft(), 49, 'six POSTs of one link made one acquirer call');
    // Another link is not held by it: it asks the acquirer itself (and fails too).
    t.is((await startPix(other.guid)).status, 502);
    t.is(await createFaultsLeft(), 48);
  } finally {
    t.is((await call(env.sandbox, 'DELETE', '/sandbox/faults')).status, 204);
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
  t.is(await pixCodeFailed(linkId, backoff, start), 2);
  t.is(await refusal(at(1)), 2);
  t.is(await refusal(at(1_500)), 1);
  backoff = await assertPixMayBeMade(linkId, at(2_000));
  t.is(backoff.failures, 1);
  t.is(await pixCodeFailed(linkId, backoff, at(2_000)), 4);
  t.is(await refusal(at(5_999)), 1);
  backoff = await assertPixMayBeMade(linkId, at(6_000));
  t.is(await pixCodeFailed(linkId, backoff, at(6_000)), 6);
  backoff = await assertPixMayBeMade(linkId, at(12_000));
  t.is(await pixCodeFailed(linkId, backoff, at(12_000)), 6, 'capped');
  // Forgotten by Redis a quiet cap past the wait.
  const key = `${getConfig().queuePrefix}:checkout-pix-backoff:${linkId}`;
  const ttl = await getProducerConnection().pttl(key);
  t.true(ttl > 6_000 && ttl <= 12_000, `ttl ${ttl}`);

  backoff = await assertPixMayBeMade(linkId, at(18_000));
  await pixCodeMade(linkId, backoff);
  t.is(await getProducerConnection().exists(key), 0);
  backoff = await assertPixMayBeMade(linkId, at(18_001));
  t.is(backoff.failures, 0);
  t.is(await pixCodeFailed(linkId, backoff, at(18_001)), 2, 'from the first wait again');
});
