/**
 * The delivery queue of link webhook events: its name, job payload, retry schedule and job ids
 * (processor: processors/link-webhook.ts, worker process only).
 * An event has one automatic delivery schedule (a job of WEBHOOK_ATTEMPTS attempts under a job id
 * fixed per stored event) and any number of one-attempt redeliveries a merchant asks for.
 */
import crypto from 'node:crypto';
import type { WorkerOptions } from 'bullmq';
import { getConfig } from '../config';
import { defineJob } from '../src/queue/job-definition';

export const LINK_WEBHOOK_QUEUE = 'link-webhook';
export const WEBHOOK_BACKOFF_TYPE = 'webhook-exponential-jitter';
/** 1 first try + 15 retries: with a 60 s base the last retry comes about 77 h (3.2 days) after the first try. */
export const WEBHOOK_ATTEMPTS = 16;
/** No retry waits longer than this many base delays (12 h with the default 60 s). */
export const WEBHOOK_MAX_DELAY_FACTOR = 720;

/**
 * What a delivery POSTs of its event, fixed once the event is stored (every redelivery is
 * byte-identical). No card data is in an event, and never the signing secret: that stays in the
 * database and is read at every delivery.
 */
export interface CarriedEvent {
  linkId: number;
  url: string;
  /** The exact JSON body sent (and signed). */
  body: string;
}

/** What names a stored event: its id (msg_<linkId>_<n>), its merchant, when it was stored. */
export interface StoredEventRef {
  _id: string;
  merchantId?: number;
  createdAt: Date;
}

export interface LinkWebhookJob {
  eventId: string;
  trigger: 'scheduled' | 'redelivery';
  /**
   * The event's merchant, so a delivery reads the merchant's secret beside the event (absent on
   * older jobs); a job whose merchant is not the stored event's is refused.
   */
  merchantId?: number;
  /**
   * The event, carried by the job queued with it (emitLinkEvent) and by a redelivery. Never sent
   * as carried: every delivery reads the stored event and refuses a job whose copy differs from it
   * by a byte (delivery.ts). Absent on jobs queued by the sweeps (and older jobs).
   */
  event?: CarriedEvent;
}

/** Delay before retry number `attemptsMade` (1 = after the first failure): base * 2^(n-1), capped, +-20 % jitter. */
export function webhookRetryDelay(attemptsMade: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(attemptsMade - 1, 0), baseMs * WEBHOOK_MAX_DELAY_FACTOR);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/** The worker side of the retry schedule: BullMQ asks it for the delay of each custom-backoff retry. */
export const linkWebhookWorkerOptions: Partial<WorkerOptions> = {
  settings: {
    backoffStrategy: (attemptsMade, type, _err, job) => {
      if (type !== WEBHOOK_BACKOFF_TYPE) return 0;
      const base = Number((job?.opts.backoff as { delay?: number } | undefined)?.delay) || 60_000;
      return webhookRetryDelay(attemptsMade, base);
    },
  },
};

/**
 * The job id of an event's automatic delivery schedule: deterministic per stored event, so the
 * normal path and the scheduler sweep racing each other, or a sweep repeating itself, leave one job
 * (BullMQ ignores an add whose id it still keeps). The event's creation time is part of it: event
 * ids (msg_<link>_<n>) repeat across databases sharing one Redis, or after a database is reset, and
 * a finished job kept under a repeated id would swallow the new event's delivery.
 */
export function deliveryJobId(event: Pick<StoredEventRef, '_id' | 'createdAt'>): string {
  return `deliver-${event._id}-${new Date(event.createdAt).getTime()}`;
}

/** A delivered event: the receiver's status code. A failed attempt throws, so it has no result. */
export interface LinkWebhookResult {
  statusCode: number;
}

export const linkWebhookJob = defineJob<LinkWebhookJob, LinkWebhookResult>()(LINK_WEBHOOK_QUEUE, 'deliver');

export function deliveryQueue() {
  return linkWebhookJob.queueOf();
}

/** Queues a delivery of an event; `carried`: the event's content, for the job to carry (see LinkWebhookJob). */
export async function enqueueDelivery(
  event: StoredEventRef,
  trigger: LinkWebhookJob['trigger'],
  carried?: CarriedEvent,
): Promise<void> {
  const jobId =
    trigger === 'scheduled'
      ? deliveryJobId(event)
      : `redeliver-${event._id}-${Date.now()}-${crypto.randomBytes(3).toString('hex')}`;
  const data: LinkWebhookJob = { eventId: event._id, trigger };
  if (event.merchantId !== undefined) data.merchantId = event.merchantId;
  if (carried) data.event = { linkId: carried.linkId, url: carried.url, body: carried.body };
  await linkWebhookJob.add(data, {
    jobId,
    // A redelivery is one attempt on request; the automatic schedule belongs to the first job.
    attempts: trigger === 'scheduled' ? WEBHOOK_ATTEMPTS : 1,
    backoff: { type: WEBHOOK_BACKOFF_TYPE, delay: getConfig().webhooks.retryBaseMs },
  });
}
