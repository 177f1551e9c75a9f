/**
 * Issue 15 item 8: redelivery had no limit (20 redeliveries of one event in a row, all 202 and all
 * sent). Now bounded per event and per merchant, 429 with Retry-After. No worker runs here: the
 * redeliveries are only queued.
 */
import '../helpers/env';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { emitLinkEvent } from '../../src/webhooks/service';
import { REDELIVERY_LIMITS } from '../../src/webhooks/schemas';
import { send } from '../helpers/http';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

async function linkWithEvents(merchant: TestMerchant, count: number): Promise<{ linkId: number; eventIds: string[] }> {
  const res = await send(app, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
    value: 2590,
    description: 'redelivery limit',
  });
  const link = await json(res);
  if (res.status !== 201) throw new Error(`link not created: ${JSON.stringify(link)}`);
  const eventIds: string[] = [];
  for (let i = 0; i < count; i++) {
    eventIds.push(
      (
        await emitLinkEvent({
          merchantId: merchant.merchantId,
          linkId: link.id,
          url: 'https://hooks.example.com/x',
          type: 'payment_link.test',
          data: { n: i },
        })
      )._id,
    );
  }
  return { linkId: link.id, eventIds };
}

const redeliver = (merchant: TestMerchant, linkId: number, eventId: string) =>
  send(app, 'POST', `/api/v1/payment-links/${linkId}/webhooks/${eventId}/redeliver/`, bearer(merchant.merchantToken));

test.serial('one event is redelivered at most its limit, then 429 with Retry-After', async (t) => {
  const merchant = await newMerchant();
  const { linkId, eventIds } = await linkWithEvents(merchant, 2);
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push((await redeliver(merchant, linkId, eventIds[0])).status);
  t.deepEqual(statuses, [
    ...Array(REDELIVERY_LIMITS.perEvent.limit).fill(202),
    ...Array(20 - REDELIVERY_LIMITS.perEvent.limit).fill(429),
  ]);
  const limited = await redeliver(merchant, linkId, eventIds[0]);
  t.is(limited.status, 429);
  t.true(Number(limited.headers.get('retry-after')) > 0);
  t.is((await redeliver(merchant, linkId, eventIds[1])).status, 202, 'another event of the merchant still goes');
  t.is(
    (await redeliver(await newMerchant(), linkId, eventIds[1])).status,
    404,
    'another merchant still gets 404, not a count',
  );
});

test.serial('a merchant is limited across its events', async (t) => {
  const saved = { ...REDELIVERY_LIMITS.perMerchant };
  REDELIVERY_LIMITS.perMerchant.limit = 7; // read per request: a small merchant limit for this test
  t.teardown(() => Object.assign(REDELIVERY_LIMITS.perMerchant, saved));
  const merchant = await newMerchant();
  const { linkId, eventIds } = await linkWithEvents(merchant, 4);
  const statuses: number[] = [];
  for (const eventId of eventIds)
    for (let i = 0; i < 2; i++) statuses.push((await redeliver(merchant, linkId, eventId)).status);
  t.deepEqual(statuses, [202, 202, 202, 202, 202, 202, 202, 429]);
  const other = await newMerchant();
  const theirs = await linkWithEvents(other, 1);
  t.is((await redeliver(other, theirs.linkId, theirs.eventIds[0])).status, 202, 'other merchants are counted apart');
});
