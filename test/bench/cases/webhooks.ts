/**
 * Link webhook deliveries per second by worker processes to a local receiver (signed, recorded,
 * as in production), with one worker process and then two, beside BullMQ no-op jobs at the same
 * concurrency in the same run. Events are queued while no worker runs; the rate is taken between
 * the first and the last delivery received, so process start-up is not counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getConfig } from '../../../config';
import { emitLinkEvent } from '../../../src/webhooks/service';
import { newMerchant } from '../../helpers/identity';
import { noopJobsPerSecond } from '../noop-jobs';
import type { BenchContext, Side, ThroughputCase } from './types';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS || 300);

async function deliveriesPerSecond(context: BenchContext, workers: number, linkBase: number): Promise<Side> {
  const arrivals: number[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    await context.setWorkers(0);
    const merchant = await newMerchant();
    for (let i = 0; i < EVENTS; i++) {
      await emitLinkEvent({ merchantId: merchant.merchantId, linkId: linkBase + i, url: `http://${host}/hook`, type: 'payment_link.paid', data: { n: i } });
    }
    await context.setWorkers(workers, { WEBHOOK_TEST_ALLOW_HOSTS: host });
    const deadline = performance.now() + 300_000;
    while (arrivals.length < EVENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const seconds = (arrivals[arrivals.length - 1] - arrivals[0]) / 1000;
    const done = arrivals.length >= EVENTS;
    return {
      requestsPerSecond: done && seconds > 0 ? Math.round(((arrivals.length - 1) / seconds) * 10) / 10 : 0,
      requests: arrivals.length,
      statusCodes: { '200': arrivals.length },
      errors: EVENTS - Math.min(arrivals.length, EVENTS),
      valid: done,
    };
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

export const webhooksCase: ThroughputCase = {
  name: 'webhooks',
  route: `${EVENTS} link webhook deliveries, 1 worker process`,
  needs: ['worker'],
  baseline: `BullMQ no-op jobs, same count, one Worker at WORKER_CONCURRENCY`,
  async measure(context) {
    const base = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    const one = await deliveriesPerSecond(context, 1, base);
    const two = await deliveriesPerSecond(context, 2, base + 500_000);
    await context.setWorkers(1);
    const baseline = await noopJobsPerSecond(EVENTS, getConfig().worker.concurrency);
    return { subject: one, baseline, note: `two worker processes: ${two.requestsPerSecond} deliveries/s (${two.valid ? 'all delivered' : `${two.requests}/${EVENTS} delivered`})` };
  },
};
