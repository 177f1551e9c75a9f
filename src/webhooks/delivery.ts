/**
 * One delivery attempt of a link webhook event: a POST of the stored body, signed with the
 * merchant's secrets (secrets.ts), a timeout of WEBHOOK_TIMEOUT_MS, redirects not followed, any
 * 2xx is success, 410 Gone stops retries; every attempt is recorded. The URL is checked again
 * before every attempt (DNS can change) and the connection is pinned to the addresses checked.
 */
import mongoose from 'mongoose';
import { Agent, request } from 'undici';
import { getConfig } from '../../config';
import { insertDocument } from '../db/inserts';
import { logger } from '../platform/logger';
import type { CarriedEvent, LinkWebhookJob } from '../../jobs/link-webhook';
import { WebhookAttemptModel, WebhookEventModel, type WebhookEvent } from './model';
import { findWebhookSecret, getWebhookSecret, signedHeaders } from './secrets';
import { checkWebhookUrl, configuredUrlRules, type ResolvedAddress, type Resolver } from '../platform/url-safety';
import { failureOfError, failureOfRefusal } from './failures';

export interface DeliveryOutcome {
  success: boolean;
  /** 410 Gone: the receiver asks us to stop. */
  gone: boolean;
  /** Nothing was sent: a scheduled job found its event no longer pending (delivered, failed or gone). */
  skipped?: boolean;
  /** Nothing was sent nor recorded: the job names no stored event, or disagrees with it (refusalOf). */
  refused?: boolean;
  statusCode: number | null;
  /**
   * A failed attempt's category (failures.ts), stored and shown to the merchant; a job refused before any
   * attempt (never stored) says why in words.
   */
  error: string | null;
  /** The transport's own text of a failed attempt, for the operator's log line only: never stored nor shown. */
  detail?: string;
}

export interface DeliveryOptions {
  resolve?: Resolver;
  now?: () => Date;
  /** The event's merchant when the job names it: its secret is read beside the event, and checked against it. */
  merchantId?: number;
  /** The event as the job carries it (LinkWebhookJob.event): checked against the stored event, never sent. */
  carried?: CarriedEvent;
  /** The job's first run: not a retry, nor a rerun after its worker died. Unset: taken for a rerun. */
  firstRun?: boolean;
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

export async function post(
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

/** A scheduled job's event is no longer pending: nothing is sent. */
const SKIPPED: DeliveryOutcome = { success: true, gone: false, skipped: true, statusCode: null, error: null };

/**
 * Why a job may not deliver the event it names, or null when it may: the event must be stored, and
 * what the job says of it (its merchant, the copy it carries) must be the stored record, byte for
 * byte. A job is not content: anyone who can write to Redis can write one, so a job that disagrees
 * with its record is refused before anything is sent, signed or written.
 */
function refusalOf(eventId: string, stored: WebhookEvent | null, options: DeliveryOptions): string | null {
  if (!stored) return `refused: the job names no stored event (${eventId})`;
  const { carried, merchantId } = options;
  const disagrees =
    (merchantId !== undefined && merchantId !== stored.merchantId) ||
    (carried !== undefined &&
      (carried.linkId !== stored.linkId || carried.url !== stored.url || carried.body !== stored.body));
  return disagrees ? `refused: the job does not match the stored event ${eventId}` : null;
}

/**
 * One delivery attempt of a stored event, recorded whatever happens. Never throws for receiver
 * faults.
 *
 * The job names its event; what is POSTed, where, and with whose secret is always the stored event
 * and its merchant's secret, read first. A job carrying a copy of the event (the one queued with it,
 * a redelivery) has it checked against the record, and a job that disagrees with its record, or
 * names none, is refused (logged, nothing sent, the stored event left as it was).
 *
 * Round trips: the event and the secret of the merchant the job names are read at once (one wait),
 * then the POST, then the attempt inserted and the event's state written, at once. The first run of
 * the job queued with its event sends without looking at the event's state: nothing can have
 * delivered the event before its own first job ran (a redelivery waits behind it in the queue; one
 * running beside it sends both ways however the state is read). A scheduled job's retry, a rerun
 * after its worker died, and every job queued by the sweeps (which carry nothing) send nothing once
 * the event is no longer pending (a redelivery or the rerun's first try delivered it).
 *
 * The attempt and the event's state stay two writes: the attempt is an insert, never lost, while
 * the event is updated by read-modify-write on FerretDB, which a concurrent write to the same
 * event (the sweep's queued mark, a redelivery's write) can undo; an attempt kept inside the event
 * could be lost that way. Both are sent at once, so they cost one wait.
 */
export async function deliverEvent(
  eventId: string,
  trigger: LinkWebhookJob['trigger'],
  options: DeliveryOptions = {},
): Promise<DeliveryOutcome> {
  const now = options.now ?? (() => new Date());
  const { carried, merchantId } = options;
  // The job's merchant is not yet checked: its secret is only read here, never created.
  const [stored, secretOfJob] = await Promise.all([
    WebhookEventModel.findById(eventId).lean<WebhookEvent>(),
    merchantId === undefined ? undefined : findWebhookSecret(merchantId),
  ]);
  const refusal = refusalOf(eventId, stored, options);
  if (refusal) {
    logger.warn({ eventId, jobMerchantId: merchantId, trigger }, refusal);
    return { success: false, gone: false, refused: true, statusCode: null, error: refusal };
  }
  const event = stored!;
  // A duplicate scheduled job (a sweep whose add came after the first job was removed) never re-sends.
  if (trigger === 'scheduled' && !(carried && options.firstRun) && event.state !== 'pending') return SKIPPED;
  const started = now();
  const startedMs = performance.now();
  const outcome = await attemptPostTo(
    event.url,
    options.resolve,
    async () =>
      signedHeaders(secretOfJob ?? (await getWebhookSecret(event.merchantId)), event._id, event.body, started),
    event.body,
  );
  const durationMs = Math.round(performance.now() - startedMs);
  await Promise.all([
    insertDocument(WebhookAttemptModel, {
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
    writeEventState(event._id, started, outcome),
  ]);
  logger.info(
    {
      eventId: event._id,
      linkId: event.linkId,
      statusCode: outcome.statusCode,
      success: outcome.success,
      error: outcome.error,
      detail: outcome.detail,
      durationMs,
    },
    'link webhook attempt',
  );
  return outcome;
}

/** The event's side of an attempt: its count and time, and its state when the attempt settled it. */
async function writeEventState(eventId: string, at: Date, outcome: DeliveryOutcome): Promise<void> {
  const attempted = { lastAttemptAt: at };
  if (outcome.success) {
    await WebhookEventModel.updateOne(
      { _id: eventId },
      { $set: { ...attempted, state: 'delivered', deliveredAt: at }, $inc: { attemptCount: 1 } },
    );
    return;
  }
  if (outcome.gone) {
    // Gone unless another attempt (a redelivery) delivered it; by _id, the state checked after the
    // lookup (see markEventFailed). A 410 is rare: the second write when it matched nothing is too.
    const { matchedCount } = await WebhookEventModel.updateOne(
      { _id: eventId, state: mongoose.trusted({ $in: ['pending', 'failed', 'gone'] }) },
      { $set: { ...attempted, state: 'gone' }, $inc: { attemptCount: 1 } },
    );
    if (matchedCount) return;
  }
  await WebhookEventModel.updateOne({ _id: eventId }, { $set: attempted, $inc: { attemptCount: 1 } });
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

/**
 * One attempt at a webhook URL: checked again first (a URL safe when saved may resolve elsewhere now),
 * then, only when it is still a safe public HTTPS URL, signed (headers are made only then) and POSTed.
 * Link webhooks and account endpoints attempt alike.
 */
export async function attemptPostTo(
  rawUrl: string,
  resolve: DeliveryOptions['resolve'],
  headers: () => Promise<Record<string, string>> | Record<string, string>,
  body: string,
): Promise<DeliveryOutcome> {
  const verdict = await checkWebhookUrl(rawUrl, configuredUrlRules(resolve));
  if (!verdict.safe)
    return {
      success: false,
      gone: false,
      statusCode: null,
      error: failureOfRefusal(verdict.reason),
      detail: `refused: the URL is no longer a safe public HTTPS URL (${verdict.reason})`,
    };
  return attemptPost(verdict.url, verdict.addresses, await headers(), body, getConfig().webhooks.timeoutMs);
}

/**
 * One signed POST to a checked URL, as an attempt: 2xx is delivered, 410 gone, a redirect is not
 * followed, a timeout or a transport error is a failed attempt naming its category (the transport's
 * text goes to `detail`, for the log line). Never throws: link webhooks and account endpoints log and
 * schedule attempts alike (src/webhooks/endpoint-delivery.ts).
 */
export async function attemptPost(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<DeliveryOutcome> {
  try {
    const statusCode = await post(url, addresses, headers, body, timeoutMs);
    const success = statusCode >= 200 && statusCode < 300;
    if (success) return { success, gone: false, statusCode, error: null };
    const redirect = statusCode >= 300 && statusCode < 400;
    return {
      success,
      gone: statusCode === 410,
      statusCode,
      error: 'http_status',
      detail: redirect ? `redirect ${statusCode} not followed` : `receiver answered ${statusCode}`,
    };
  } catch (error) {
    const e = error as Error & { code?: string };
    const failure = failureOfError(error);
    return {
      success: false,
      gone: false,
      statusCode: null,
      error: failure,
      detail:
        failure === 'timeout'
          ? `no answer within ${timeoutMs} ms (${e.code ?? e.name})`
          : `${e.code ?? e.name}: ${e.message}`,
    };
  }
}
