/**
 * The events outbox (src/events/outbox.ts) as a fault: a web process and a worker process SIGKILLed
 * between a state write and the recording of the event it owes. The write carried the event, so the
 * scheduler's sweep records it, once, under its one id, and the endpoint receives it once, verified.
 */
import '../helpers/env';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { Receiver } from '../webhooks/receiver';
import { cardSale, PRE_CAPTURE } from '../sales/helpers';
import { createSubscription } from '../subscriptions/support';
import { createEndpoint, untilReceived, verifiedAt } from './helpers';
import { AccountEventModel } from '../../src/events/model';
import { owedEventsAgeSeconds, sweepOwedEvents } from '../../src/events/outbox';
import { PaymentModel } from '../../src/payments/model';
import { SubscriptionChargeModel } from '../../src/subscriptions/model';
import { CHARGE_QUEUE } from '../../jobs/charge-subscription';

let app: TestApp;
let sandbox: RunningProcess;
let merchant: TestMerchant;
const receiver = new Receiver();
// The pause between a state write and the recording of its events, in the processes that are killed there.
const HELD = { EVENTS_TEST_HOLD_MS: '60000' };
const HOLDING = 'state written; holding before its events';

test.before(async () => {
  await receiver.start();
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  merchant = await newMerchant();
});
// The processes a test starts, stopped after it whatever its outcome (the sandbox lives for the file).
const started: RunningProcess[] = [];
const start = async (...args: Parameters<typeof startProcess>) => {
  const proc = await startProcess(...args);
  started.push(proc);
  return proc;
};
test.afterEach.always(async () => {
  await Promise.all(started.splice(0).map((proc) => proc.stop()));
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

/** The sweep as the scheduler runs it, its grace period over. */
const sweepLater = () => sweepOwedEvents(new Date(Date.now() + 5 * 60_000));

test.serial('the web process killed between a capture and its event: the sweep records it, once', async (t) => {
  const endpoint = await createEndpoint(app, merchant, {
    url: receiver.url('/captures'),
    enabled_events: ['sale.captured'],
  });
  const as = bearer(merchant.merchantToken);
  const sale = (await callJson(app, 'POST', PRE_CAPTURE, as, cardSale())).body.data;
  const web = await start('web', HELD);
  // The capture is written, then held before its event: its answer never comes.
  void fetch(`${web.url}/api/v1/online/sales/${sale.id}/capture/`, {
    method: 'PUT',
    headers: as,
  }).catch(() => undefined);
  await eventually(() => web.logs.join('').includes(HOLDING), 30_000);
  const killed = await web.stop('SIGKILL');
  t.is(killed.signal, 'SIGKILL');

  const id = `evt_sale_${sale.id}_captured`;
  const written = (await PaymentModel.findById(sale.id).lean())!;
  t.is(written.status, 'CONFIRMED');
  t.true((written as any).eventsOwed, 'the capture owes its event');
  t.is(await AccountEventModel.countDocuments({ _id: id }), 0, 'the event was not recorded before the kill');
  t.true((await owedEventsAgeSeconds()) > 0, '/metrics shows the outbox waiting');

  t.true((await sweepLater()) >= 1);
  await sweepLater(); // a second sweep records nothing again
  const stored = (await PaymentModel.findById(sale.id).lean())! as any;
  t.falsy(stored.eventsOwed);
  t.deepEqual(stored.owedEvents ?? {}, {});
  t.is(await AccountEventModel.countDocuments({ objectKey: `sale_${sale.id}`, type: 'sale.captured' }), 1);

  const worker = await start('worker');
  const [event] = await untilReceived(receiver, '/captures', endpoint.secret, 'sale.captured');
  t.is(event.id, id);
  t.like(event.data, { id: sale.id, sale_status: 'CONFIRMED' });
  // Every fan-out and delivery done: a second delivery can no longer come.
  await untilQueuesIdle();
  t.deepEqual(
    verifiedAt(receiver, '/captures', endpoint.secret).map((e) => e.id),
    [id],
  );
});

test.serial('the worker killed between a charge outcome and its event: the sweep records it, once', async (t) => {
  const endpoint = await createEndpoint(app, merchant, {
    url: receiver.url('/charges'),
    enabled_events: ['subscription_charge.confirmed'],
  });
  const doomed = await start('worker', { ...HELD, WORKER_QUEUES: CHARGE_QUEUE });
  const today = new Date().toISOString().slice(0, 10);
  const sub = await createSubscription(app.url, merchant, { firstDueDate: today, cardLastDigit: 1 });
  t.is(sub.status, 201);
  await eventually(() => doomed.logs.join('').includes(HOLDING), 45_000);
  t.is((await doomed.stop('SIGKILL')).signal, 'SIGKILL');

  const charge = (await SubscriptionChargeModel.findOne({ subscriptionId: sub.body.data.id }).lean())! as any;
  t.is(charge.status, 1, 'the outcome is written');
  t.true(charge.eventsOwed);
  const id = `evt_subscription_charge_${charge._id}_confirmed`;
  t.is(await AccountEventModel.countDocuments({ _id: id }), 0);

  // A worker without the hold takes the charge's stalled job again: it finds the outcome applied, and
  // the event is the sweep's to record.
  const worker = await start('worker', { WORKER_LOCK_DURATION_MS: '2000' });
  t.true((await sweepLater()) >= 1);
  const [event] = await untilReceived(receiver, '/charges', endpoint.secret, 'subscription_charge.confirmed');
  t.is(event.id, id);
  t.like(event.data, { id: charge._id, status: 1 });
  await sweepLater();
  await untilQueuesIdle();
  t.deepEqual(
    verifiedAt(receiver, '/charges', endpoint.secret).map((e) => e.id),
    [id],
  );
  t.is(await AccountEventModel.countDocuments({ _id: id }), 1);
});
