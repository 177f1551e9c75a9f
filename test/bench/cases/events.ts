/**
 * Account events delivered per second to one webhook endpoint by one worker process (issue 26): each
 * event recorded as the money areas record it (recordEvent: the object's last event read, the insert),
 * then, by the worker, fanned out (the account-event job: the event and the merchant's endpoints read,
 * one delivery stored) and delivered (the endpoint-webhook job: the delivery and its endpoint read, the
 * signed POST, the attempt inserted, the delivery and the endpoint updated). Events are recorded while no
 * worker runs; the rate is arrivals first to last. Beside it, in the same run: BullMQ no-op jobs (the
 * baseline) and the link webhooks' floor (a BullMQ job making the same signed POST + one update).
 * Database commands per event: every command of the worker processes, divided by the events.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../../config';
import { recordEvent } from '../../../src/events/recording';
import { WebhookEndpointModel } from '../../../src/webhooks/endpoint-model';
import { ENDPOINT_WEBHOOK_QUEUE } from '../../../jobs/endpoint-webhook';
import { newMerchant } from '../../helpers/identity';
import { commandsSince, snapshot } from '../db-commands';
import { noopJobsPerSecond } from '../noop-jobs';
import { awaitDeliveries, EVENTS, floorDeliveriesPerSecond, receiver } from './webhooks';
import type { ThroughputCase } from './types';

export const eventsCase: ThroughputCase = {
  name: 'events',
  route: `${EVENTS} account events fanned out and delivered to one webhook endpoint, 1 worker process`,
  needs: ['worker'],
  baseline: 'BullMQ no-op jobs, same count, one Worker at WORKER_CONCURRENCY',
  floor:
    'one worker process, same concurrency: a BullMQ job making the same signed POST (standardwebhooks) to the ' +
    'same receiver + one update',
  async measure(context) {
    const target = await receiver();
    let subject;
    try {
      await context.setWorkers(0);
      const merchant = await newMerchant();
      const now = new Date();
      await WebhookEndpointModel.create({
        _id: `we_${crypto.randomBytes(12).toString('hex')}`,
        merchantId: merchant.merchantId,
        slot: 0,
        url: `http://${target.host}/events`,
        enabledEvents: ['*'],
        secret: `whsec_${crypto.randomBytes(32).toString('base64')}`,
        createdAt: now,
        updatedAt: now,
      });
      const tag = crypto.randomBytes(4).toString('hex');
      for (let i = 0; i < EVENTS; i++)
        await recordEvent({ merchantId: merchant.merchantId, type: 'pix.paid', objectId: `${tag}${i}`, data: { i } });
      const before = await snapshot(context.metered());
      await context.setWorkers(1, { WEBHOOK_TEST_ALLOW_HOSTS: target.host });
      const side = await awaitDeliveries(target, () => context.metered(), ENDPOINT_WEBHOOK_QUEUE);
      subject = { side, dbCommands: await commandsSince(before, context.metered(), EVENTS) };
    } finally {
      await target.close();
    }
    await context.setWorkers(0);
    const base = 960_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    const floor = await floorDeliveriesPerSecond(context, base);
    await context.setWorkers(1);
    const baseline = await noopJobsPerSecond(EVENTS, getConfig().worker.concurrency);
    return {
      subject: subject.side,
      baseline,
      floor: floor.side,
      dbCommands: subject.dbCommands,
      floorDbCommands: floor.dbCommands,
    };
  },
};
