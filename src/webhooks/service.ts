/**
 * Link webhooks, signed per the Standard Webhooks spec (standardwebhooks.com):
 *   webhook-id: msg_<linkId>_<sequence>   (the same on every retry and redelivery of an event)
 *   webhook-timestamp: unix seconds of this attempt
 *   webhook-signature: "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>", space-separated when
 *                      a rotated-out secret is still in its grace period (both sign).
 * The secret is per merchant, "whsec_<base64>", readable and rotatable by the merchant.
 *
 * Delivery: a POST of the stored body, a timeout of WEBHOOK_TIMEOUT_MS, redirects not followed,
 * any 2xx is success, 410 Gone stops retries; every attempt is recorded. The URL is checked again
 * before every attempt (DNS can change) and the connection is pinned to the addresses checked.
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import { Agent, request } from 'undici';
import { getConfig } from '../../config';
import { isDuplicateKey } from '../db/connection';
import { notFound } from '../http/errors';
import { logger } from '../logger';
import { getQueue } from '../queue';
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from './url-safety';
import {
  WebhookAttemptModel,
  WebhookEventModel,
  WebhookSecretModel,
  type WebhookEvent,
  type WebhookSecret,
} from './model';

export const LINK_WEBHOOK_QUEUE = 'link-webhook';
export const WEBHOOK_BACKOFF_TYPE = 'webhook-exponential-jitter';
/** 1 first try + 15 retries: with a 60 s base the last retry comes about 77 h (3.2 days) after the first try. */
export const WEBHOOK_ATTEMPTS = 16;
/** No retry waits longer than this many base delays (12 h with the default 60 s). */
export const WEBHOOK_MAX_DELAY_FACTOR = 720;
/** How long a stored event may stay without a queued delivery before the scheduler sweep queues it. */
export const UNQUEUED_EVENT_GRACE_MS = 60_000;
/** At most this many events are queued by one sweep (one scheduler tick); the rest wait for the next tick. */
export const UNQUEUED_EVENT_SWEEP_BATCH = 500;
/** A rotated-out secret keeps signing (beside the new one) this long. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

export interface LinkWebhookJob {
  eventId: string;
  trigger: 'scheduled' | 'redelivery';
  /** The event's merchant, so a delivery reads the event and the merchant's secret at once (absent on older jobs). */
  merchantId?: number;
}

/** Delay before retry number `attemptsMade` (1 = after the first failure): base * 2^(n-1), capped, +-20 % jitter. */
export function webhookRetryDelay(attemptsMade: number, baseMs: number, random = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(attemptsMade - 1, 0), baseMs * WEBHOOK_MAX_DELAY_FACTOR);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

/** The merchant's secret, created on first use (a concurrent first use loses the insert and reads the winner). */
export async function getWebhookSecret(merchantId: number): Promise<WebhookSecret> {
  const existing = await WebhookSecretModel.findById(merchantId).lean();
  if (existing) return existing;
  try {
    return (
      await WebhookSecretModel.create({ _id: merchantId, secret: newSecret(), createdAt: new Date() })
    ).toObject();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return (await WebhookSecretModel.findById(merchantId).lean())!;
  }
}

/** A new secret signs from now on; the old one also signs for ROTATION_GRACE_MS. */
export async function rotateWebhookSecret(merchantId: number, now = new Date()): Promise<WebhookSecret> {
  const current = await getWebhookSecret(merchantId);
  const rotated = {
    secret: newSecret(),
    previousSecret: current.secret,
    previousValidUntil: new Date(now.getTime() + ROTATION_GRACE_MS),
    rotatedAt: now,
  };
  await WebhookSecretModel.updateOne({ _id: merchantId }, { $set: rotated });
  return { ...current, ...rotated };
}

export function presentSecret(secret: WebhookSecret) {
  return {
    secret: secret.secret,
    created_at: secret.createdAt.toISOString(),
    rotated_at: secret.rotatedAt ? secret.rotatedAt.toISOString() : null,
    previous_secret_valid_until: secret.previousValidUntil ? secret.previousValidUntil.toISOString() : null,
  };
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function signedHeaders(
  secret: WebhookSecret,
  id: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = [secret.secret];
  if (secret.previousSecret && secret.previousValidUntil && secret.previousValidUntil > now)
    secrets.push(secret.previousSecret);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}

export interface NewLinkEvent {
  merchantId: number;
  linkId: number;
  url: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Stores an event with the link's next sequence number and queues its delivery. The sequence is
 * claimed by inserting msg_<link>_<n> (unique _id): a concurrent event for the same link loses the
 * insert and takes n+1, so sequences never repeat even where $inc could lose increments.
 *
 * The event is inserted already marked queued, and its job added right after: one write fewer
 * than marking it after the add, and no update of the event still in flight when its first
 * delivery writes it (FerretDB's read-modify-write could put `pending` back over `delivered`).
 * When the add fails (Redis down) the mark is taken off again, so the scheduler sweep queues the
 * event after its grace period; should that write fail too, the lost-job pass queues it (a
 * pending event marked queued whose job does not exist).
 */
async function unmarkUnqueued(event: Pick<WebhookEvent, '_id' | 'createdAt'>): Promise<void> {
  // Not when the job is there after all (an add whose answer was lost): its delivery may already
  // have written the event, which this whole-document write would undo. When Redis cannot be asked,
  // it is down: no worker is delivering now, so the unmark lands before any delivery could.
  const queued = await getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE)
    .getJob(deliveryJobId(event))
    .catch(() => undefined);
  if (queued) return;
  await WebhookEventModel.updateOne({ _id: event._id }, { $set: { queuedAt: null } }).catch((err) => {
    logger.warn(
      { err, eventId: event._id },
      'could not unmark a link webhook event whose delivery was not queued; the lost-job pass will queue it',
    );
  });
}

export async function emitLinkEvent(event: NewLinkEvent, now = new Date()): Promise<WebhookEvent> {
  for (let tries = 0; tries < 20; tries++) {
    const last = await WebhookEventModel.findOne({ linkId: event.linkId }).sort({ sequence: -1 }).lean();
    const sequence = (last?.sequence ?? 0) + 1;
    const id = `msg_${event.linkId}_${sequence}`;
    const body = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: { ...event.data, sequence } });
    let stored: WebhookEvent;
    try {
      stored = (
        await WebhookEventModel.create({
          _id: id,
          merchantId: event.merchantId,
          linkId: event.linkId,
          sequence,
          type: event.type,
          url: event.url,
          body,
          createdAt: now,
          queuedAt: new Date(),
        })
      ).toObject();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      continue;
    }
    try {
      await enqueueDelivery(stored, 'scheduled');
    } catch (error) {
      await unmarkUnqueued(stored);
      throw error;
    }
    return stored;
  }
  throw new Error(`could not claim a webhook sequence number for link ${event.linkId}`);
}

/**
 * The job id of an event's automatic delivery schedule: deterministic per stored event, so the
 * normal path and the scheduler sweep racing each other, or a sweep repeating itself, leave one job
 * (BullMQ ignores an add whose id it still keeps). The event's creation time is part of it: event
 * ids (msg_<link>_<n>) repeat across databases sharing one Redis, or after a database is reset, and
 * a finished job kept under a repeated id would swallow the new event's delivery.
 */
export function deliveryJobId(event: Pick<WebhookEvent, '_id' | 'createdAt'>): string {
  return `deliver-${event._id}-${new Date(event.createdAt).getTime()}`;
}

/** Queues the automatic delivery schedule of an event, then records that it is queued. */
export async function enqueueScheduledDelivery(
  event: Pick<WebhookEvent, '_id' | 'createdAt' | 'merchantId'>,
): Promise<void> {
  await enqueueDelivery(event, 'scheduled');
  try {
    await WebhookEventModel.updateOne({ _id: event._id, queuedAt: null }, { $set: { queuedAt: new Date() } });
  } catch (err) {
    // The job is queued; the sweep will find the event unmarked and its add will be a no-op.
    logger.warn({ err, eventId: event._id }, 'could not mark a link webhook event as queued');
  }
}

/**
 * Scheduler task: stored events whose delivery was never queued (Redis was down when the link was
 * paid) are queued once they are older than the grace period, oldest first, at most
 * UNQUEUED_EVENT_SWEEP_BATCH per tick, streamed from a cursor. Only pending events qualify, and a
 * scheduled job skips an event that is no longer pending, so a delivered event is never re-sent.
 */
export async function sweepUnqueuedLinkEvents(
  now = new Date(),
  graceMs = UNQUEUED_EVENT_GRACE_MS,
  batch = UNQUEUED_EVENT_SWEEP_BATCH,
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const cursor = WebhookEventModel.find(
    { state: 'pending', queuedAt: null, createdAt: mongoose.trusted({ $lt: cutoff }) as { $lt: Date } },
    { _id: 1, merchantId: 1, createdAt: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(batch)
    .lean()
    .cursor();
  let queued = 0;
  try {
    for await (const event of cursor) {
      await enqueueScheduledDelivery(event);
      queued++;
    }
  } finally {
    if (queued) logger.warn({ queued }, 'queued link webhook events whose delivery was never queued');
  }
  return queued;
}

/** A queued, pending event idle this long (no attempt since) has its job checked for. */
export const LOST_JOB_GRACE_MS = 10 * 60_000;

/**
 * Scheduler task, second half: pending events whose delivery job was queued but is no longer in
 * Redis (Redis lost its data: a restart without persistence, a flush) are queued again. Every
 * pending event idle for LOST_JOB_GRACE_MS is looked up in BullMQ (one Redis read each; an event
 * waiting out a long retry delay still has its delayed job and is left alone); at most `batch` are
 * queued again per tick. A job that still exists, failed or not, is left to its own schedule.
 */
export async function requeueLostLinkEventJobs(
  now = new Date(),
  graceMs = LOST_JOB_GRACE_MS,
  batch = UNQUEUED_EVENT_SWEEP_BATCH,
): Promise<number> {
  const idleSince = new Date(now.getTime() - graceMs);
  const cursor = WebhookEventModel.find(
    { state: 'pending', queuedAt: mongoose.trusted({ $ne: null, $lt: idleSince }) as { $lt: Date } },
    { _id: 1, lastAttemptAt: 1, merchantId: 1, createdAt: 1 },
  )
    .lean()
    .cursor();
  const queue = getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE);
  let queued = 0;
  try {
    for await (const event of cursor) {
      if (queued >= batch) break;
      if (event.lastAttemptAt && event.lastAttemptAt >= idleSince) continue;
      if (await queue.getJob(deliveryJobId(event))) continue;
      await enqueueDelivery(event, 'scheduled');
      queued++;
    }
  } finally {
    await cursor.close();
    if (queued) logger.warn({ queued }, 'queued again link webhook events whose delivery job was lost');
  }
  return queued;
}

/** The scheduler task form (a SchedulerTask of workers/scheduler.ts). */
export async function requeueUndeliveredLinkEvents(now: Date): Promise<void> {
  await sweepUnqueuedLinkEvents(now);
  await requeueLostLinkEventJobs(now);
}

async function enqueueDelivery(
  event: Pick<WebhookEvent, '_id' | 'createdAt' | 'merchantId'>,
  trigger: LinkWebhookJob['trigger'],
): Promise<void> {
  const jobId =
    trigger === 'scheduled'
      ? deliveryJobId(event)
      : `redeliver-${event._id}-${Date.now()}-${crypto.randomBytes(3).toString('hex')}`;
  await getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE).add(
    'deliver',
    { eventId: event._id, trigger, ...(event.merchantId === undefined ? {} : { merchantId: event.merchantId }) },
    {
      jobId,
      // A redelivery is one attempt on request; the automatic schedule belongs to the first job.
      attempts: trigger === 'scheduled' ? WEBHOOK_ATTEMPTS : 1,
      backoff: { type: WEBHOOK_BACKOFF_TYPE, delay: getConfig().webhooks.retryBaseMs },
    },
  );
}

/** A merchant asks for one more delivery of an event of one of its links. */
export async function redeliverEvent(merchantId: number, linkId: number, eventId: string): Promise<WebhookEvent> {
  const event = await WebhookEventModel.findOne({ _id: eventId, linkId, merchantId }).lean();
  if (!event) throw notFound('No such event for this payment link.');
  await enqueueDelivery(event, 'redelivery');
  return event;
}

export interface DeliveryOutcome {
  success: boolean;
  /** 410 Gone: the receiver asks us to stop. */
  gone: boolean;
  /** Nothing was sent: a scheduled job found its event no longer pending (delivered, failed or gone). */
  skipped?: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface DeliveryOptions {
  resolve?: Resolver;
  now?: () => Date;
  /** The event's merchant when the job names it: its secret is read beside the event. */
  merchantId?: number;
}

/** Connects only to the addresses the safety check approved, whatever DNS says a moment later. */
function pinnedAgent(addresses: ResolvedAddress[], timeoutMs: number): Agent {
  return new Agent({
    connect: {
      timeout: timeoutMs,
      lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      }) as never,
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: 1,
    pipelining: 0,
  });
}

async function post(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) {
  const agent = pinnedAgent(addresses, timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'payments-platform-webhooks/1', ...headers },
      body,
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read at most a little of the answer: we only need the status, and the connection closes anyway.
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    return response.statusCode;
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

/**
 * One delivery attempt of a stored event, recorded whatever happens. Never throws for receiver
 * faults. Round trips: the event and the merchant's secret read at once (when the job names the
 * merchant), the POST, then the attempt record and the event's state written at once. They stay
 * two writes: the attempt is an insert, never lost, while the event is updated by read-modify-
 * write on FerretDB, which a concurrent write to the same event (its queuedAt mark, a
 * redelivery) can undo; an attempt kept inside the event could be lost that way.
 */
export async function deliverEvent(
  eventId: string,
  trigger: LinkWebhookJob['trigger'],
  options: DeliveryOptions = {},
): Promise<DeliveryOutcome> {
  const config = getConfig();
  const now = options.now ?? (() => new Date());
  const [event, secretOfJob] = await Promise.all([
    WebhookEventModel.findById(eventId).lean(),
    options.merchantId === undefined ? undefined : getWebhookSecret(options.merchantId),
  ]);
  if (!event) return { success: false, gone: true, statusCode: null, error: 'event no longer exists' };
  // A duplicate scheduled job (a sweep whose add came after the first job was removed) never re-sends.
  if (trigger === 'scheduled' && event.state !== 'pending')
    return { success: true, gone: false, skipped: true, statusCode: null, error: null };
  const started = now();
  const startedMs = performance.now();
  let outcome: DeliveryOutcome;
  const verdict = await checkWebhookUrl(event.url, {
    resolve: options.resolve,
    allowHosts: config.webhooks.testAllowHosts,
  });
  if (!verdict.safe) {
    outcome = {
      success: false,
      gone: false,
      statusCode: null,
      error: `refused: the URL is no longer a safe public HTTPS URL (${verdict.reason})`,
    };
  } else {
    try {
      const secret =
        secretOfJob && secretOfJob._id === event.merchantId ? secretOfJob : await getWebhookSecret(event.merchantId);
      const statusCode = await post(
        verdict.url,
        verdict.addresses,
        signedHeaders(secret, event._id, event.body, started),
        event.body,
        config.webhooks.timeoutMs,
      );
      const success = statusCode >= 200 && statusCode < 300;
      outcome = {
        success,
        gone: statusCode === 410,
        statusCode,
        error: success
          ? null
          : statusCode >= 300 && statusCode < 400
            ? `redirect ${statusCode} not followed`
            : `receiver answered ${statusCode}`,
      };
    } catch (error) {
      const e = error as Error & { code?: string };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.code ?? '');
      outcome = {
        success: false,
        gone: false,
        statusCode: null,
        error: timedOut ? `no answer within ${config.webhooks.timeoutMs} ms` : `${e.code ?? e.name}: ${e.message}`,
      };
    }
  }
  const durationMs = Math.round(performance.now() - startedMs);
  const update: Record<string, unknown> = { lastAttemptAt: started };
  if (outcome.success) Object.assign(update, { state: 'delivered', deliveredAt: started });
  else if (outcome.gone && event.state !== 'delivered') update.state = 'gone';
  await Promise.all([
    WebhookAttemptModel.create({
      eventId: event._id,
      merchantId: event.merchantId,
      linkId: event.linkId,
      trigger,
      at: started,
      durationMs,
      statusCode: outcome.statusCode,
      success: outcome.success,
      error: outcome.error,
    }),
    WebhookEventModel.updateOne({ _id: event._id }, { $set: update, $inc: { attemptCount: 1 } }),
  ]);
  logger.info(
    { eventId: event._id, linkId: event.linkId, statusCode: outcome.statusCode, success: outcome.success, durationMs },
    'link webhook attempt',
  );
  return outcome;
}

/** The automatic schedule ran out without a success. */
export async function markEventFailed(eventId: string): Promise<void> {
  // By _id alone; the state is checked after the lookup (an equality on it would let PostgreSQL, with
  // no statistics, intersect the state index: every pending event).
  await WebhookEventModel.updateOne(
    { _id: eventId, state: mongoose.trusted({ $in: ['pending'] }) },
    { $set: { state: 'failed' } },
  );
}

export function presentEvent(
  event: WebhookEvent,
  attempts: {
    at: Date;
    durationMs: number;
    statusCode: number | null;
    success: boolean;
    error: string | null;
    trigger: string;
  }[],
) {
  return {
    id: event._id,
    type: event.type,
    sequence: event.sequence,
    url: event.url,
    state: event.state,
    created_at: event.createdAt.toISOString(),
    delivered_at: event.deliveredAt ? event.deliveredAt.toISOString() : null,
    payload: JSON.parse(event.body),
    attempts: attempts.map((a) => ({
      at: a.at.toISOString(),
      trigger: a.trigger,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      success: a.success,
      error: a.error,
    })),
  };
}

/** Every event of a link, oldest first, each with every attempt. */
export async function listLinkEvents(merchantId: number, linkId: number) {
  const [events, attempts] = await Promise.all([
    WebhookEventModel.find({ linkId, merchantId }).sort({ sequence: 1 }).lean(),
    WebhookAttemptModel.find({ linkId, merchantId }).sort({ at: 1 }).lean(),
  ]);
  return events.map((event) =>
    presentEvent(
      event,
      attempts.filter((a) => a.eventId === event._id),
    ),
  );
}
