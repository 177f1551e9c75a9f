/**
 * The wait of a link after the acquirer failed its PIX code (issue 39 item 5). The checkout is public:
 * while the acquirer keeps failing, each POST .../pix of a link would call it again, bounded only by the
 * per-address pay limit. A failed code makes the link wait before its next one: CHECKOUT_PIX_BACKOFF_MS,
 * doubled by each failure in a row up to CHECKOUT_PIX_BACKOFF_MAX_MS; a code made forgets the failures,
 * and so does a quiet cap past the last wait (the key's expiry). Meanwhile the link answers 503 with
 * Retry-After and a Portuguese text for the page.
 *
 * Kept in Redis, so every web process waits the same, and it costs no FerretDB command: one GET on the
 * path that is about to call the acquirer (none on the path that answers the live code), one SET after a
 * failure, one DEL after the first code that follows failures. While Redis does not answer no wait is
 * kept (logged): payment needs no Redis, and the link's one code in the making and the pay rate limit
 * still hold.
 */
import { getConfig } from '../../config';
import { ApiError } from '../platform/errors';
import { logger } from '../platform/logger';
import { getProducerConnection } from '../platform/redis';
import { PIX_UNAVAILABLE } from './payer-messages';
import type { CheckoutPixWait } from './schemas';

/** The failures in a row of a link's PIX codes, and until when it waits. */
export interface PixBackoff {
  failures: number;
  untilMs: number;
}

const NONE: PixBackoff = { failures: 0, untilMs: 0 };

/** In the queues' prefix: its hash tag keeps the key in their slot on a cluster, and each stack has its own. */
const keyOf = (linkId: number) => `${getConfig().queuePrefix}:checkout-pix-backoff:${linkId}`;

/** What the store says of a link, NONE when it does not answer. */
async function readBackoff(linkId: number): Promise<PixBackoff> {
  try {
    const value = await getProducerConnection().get(keyOf(linkId));
    const [failures, untilMs] = (value ?? '').split(':').map(Number);
    return Number.isInteger(failures) && failures > 0 && Number.isFinite(untilMs) ? { failures, untilMs } : NONE;
  } catch (error) {
    logger.warn({ err: { message: (error as Error).message }, linkId }, 'PIX backoff unreadable; not applied');
    return NONE;
  }
}

/** Whole seconds until `untilMs`, at least 1: what Retry-After says. */
const secondsUntil = (untilMs: number, now: Date) => Math.max(1, Math.ceil((untilMs - now.getTime()) / 1000));

export function pixWait(retryAfterSeconds: number): ApiError {
  const body: CheckoutPixWait = {
    detail:
      `The acquirer failed this link's last PIX code; no new one is made for ${retryAfterSeconds} s ` +
      '(Retry-After). Nothing was charged.',
    payerMessage: PIX_UNAVAILABLE,
  };
  return new ApiError(503, body, { 'Retry-After': String(retryAfterSeconds) });
}

/**
 * Before the acquirer is asked for a link's code: 503 with Retry-After while the link waits; else its
 * failures so far, for pixCodeFailed and pixCodeMade.
 */
export async function assertPixMayBeMade(linkId: number, now: Date): Promise<PixBackoff> {
  const backoff = await readBackoff(linkId);
  if (backoff.untilMs > now.getTime()) throw pixWait(secondsUntil(backoff.untilMs, now));
  return backoff;
}

/**
 * After the acquirer failed a code: the link waits, longer for each failure in a row. Recorded before the
 * code is marked failed, so no payer who then finds no code in the making gets past the wait. Returns the
 * wait in seconds (Retry-After of the failing answer).
 */
export async function pixCodeFailed(linkId: number, before: PixBackoff, now: Date): Promise<number> {
  const { firstMs, maxMs } = getConfig().checkoutPixBackoff;
  const failures = before.failures + 1;
  const waitMs = Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 30));
  const untilMs = now.getTime() + waitMs;
  try {
    await getProducerConnection().set(keyOf(linkId), `${failures}:${untilMs}`, 'PX', waitMs + maxMs);
  } catch (error) {
    logger.warn({ err: { message: (error as Error).message }, linkId }, 'PIX backoff not recorded');
  }
  return secondsUntil(untilMs, now);
}

/** A code was made: the link's failures are forgotten (a command only when there were some). */
export async function pixCodeMade(linkId: number, before: PixBackoff): Promise<void> {
  if (before.failures === 0) return;
  await getProducerConnection()
    .del(keyOf(linkId))
    .catch((error: Error) => logger.warn({ err: { message: error.message }, linkId }, 'PIX backoff not cleared'));
}
