/**
 * Rate limits kept in Redis by rate-limiter-flexible (on one Redis or a Redis Cluster), so every web
 * process counts against the same limit.
 *
 * A fixed window per (limit name, client): the first request starts it, each request adds one, and
 * a request over `limit` is refused until the window ends (Retry-After says when). Refused requests
 * count too, but never lengthen the window. Redis keeps the window's expiry, so processes on several
 * machines agree. A fixed window lets a client spend two limits across a window's end; for the
 * limits here (a minute of password checks, ten minutes of card attempts) that is accepted for a
 * library that also runs on a cluster, instead of the 160 lines of our own Lua that kept a log.
 *
 * The client is req.ip: the socket address unless the app's 'trust proxy' (TRUST_PROXY) says which
 * proxies' X-Forwarded-For to believe. IPv6 clients are counted per /64, the block one subscriber
 * usually holds. When Redis cannot answer, a limited route answers 503 rather than go unlimited,
 * unless it counts per process meanwhile (whenStoreDown).
 */
import net from 'node:net';
import type { Request, RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { createRedisConnection, type RedisClient } from '../platform/redis';
import { ApiError, serviceUnavailable } from '../platform/errors';

/** How long a request waits for a connection that is not ready (reconnecting, say): then the route answers 503. */
const READY_WAIT_MS = 1000;
/**
 * A new connection's first connect is given this long from its creation (slower on a loaded machine): a
 * request meanwhile waits until then, not just READY_WAIT_MS; after it, a request waits READY_WAIT_MS.
 */
const FIRST_CONNECT_MS = 5000;
let connection: RedisClient | undefined;
/** Until when `connection`'s first connect is waited for. */
let firstConnectUntil = 0;
/** The limiters on `connection`, by name and thresholds (a test may change the configured ones). */
const limiters = new Map<string, RateLimiterRedis>();

/** The limiter's own connection, recreated after closeQueues() ended it; waits briefly while it connects. */
async function readyConnection(): Promise<RedisClient> {
  if (!connection || connection.status === 'end') {
    connection = createRedisConnection();
    firstConnectUntil = Date.now() + FIRST_CONNECT_MS;
    limiters.clear();
  }
  const current = connection;
  if (current.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(READY_WAIT_MS, firstConnectUntil - Date.now()));
      current.once('ready', done);
      function done() {
        clearTimeout(timer);
        current.off('ready', done);
        resolve();
      }
    });
  }
  return current;
}

/** The rate-limit bucket of a client address: IPv4 as is (mapped IPv6 unwrapped), IPv6 per /64. */
export function clientBucket(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  const address = ip.split('%')[0];
  if (!net.isIPv6(address)) return address;
  const gap = address.includes('::');
  const [headText, tailText] = gap ? address.split('::') : [address, ''];
  const head = headText ? headText.split(':') : [];
  const tail = tailText ? tailText.split(':') : [];
  const tailGroups = tail.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const groups = gap ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tailGroups)).fill('0'), ...tail] : head;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export interface RateLimitOptions {
  /** Names the counter; routes with different names are limited separately. */
  name: string;
  /** Read on each request (config is loaded once), so tests and processes pick up their own env. */
  limit?: () => number;
  windowSeconds?: () => number;
  /**
   * When Redis cannot answer: 'refuse' (503, the default: password checks and the token endpoints
   * never run unlimited) or 'count-per-process' (rate-limiter-flexible's insurance: each process
   * counts in its memory with the same thresholds, a warning logged), for a route whose other guards
   * hold without Redis and whose outage would cost more than the per-process counts give away.
   */
  whenStoreDown?: 'refuse' | 'count-per-process';
  /** Counts per this key (a merchant, an event, an account) instead of per client address. */
  key?: string;
  /**
   * Once over the limit, the counter is refused for this long from the request that went over
   * (rate-limiter-flexible's blockDuration), instead of until its window ends; later refused
   * requests do not lengthen it.
   */
  blockSeconds?: () => number;
}

/** What one request's count left: the limit, how much of it is spent (this request included), and until when. */
export interface RateCount {
  limit: number;
  consumed: number;
  remaining: number;
  msBeforeNext: number;
  /** This request went over the limit. */
  over: boolean;
}

/** The Redis key prefix of a limit: its counters are this plus ":" and the client or key. */
function keyPrefix(name: string): string {
  return `${getConfig().queuePrefix}:limits:${name}`;
}

/** The counter a client's requests to the named per-address limit are counted in. */
export function rateLimitKey(name: string, req: Pick<Request, 'ip'>): string {
  return `${keyPrefix(name)}:${clientBucket(req.ip)}`;
}

function limiterFor(redis: RedisClient, options: RateLimitOptions, points: number, duration: number) {
  const blockDuration = options.blockSeconds?.() ?? 0;
  const id = JSON.stringify([options.name, points, duration, blockDuration, options.whenStoreDown]);
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: keyPrefix(options.name),
      points,
      duration,
      blockDuration,
      insuranceLimiter:
        options.whenStoreDown === 'count-per-process' ? new RateLimiterMemory({ points, duration }) : undefined,
    });
    limiters.set(id, limiter);
  }
  return limiter;
}

/** The counter of this request in a limit: its key, or the client's address. */
function counterOf(options: RateLimitOptions, req: Pick<Request, 'ip'>): string {
  return options.key === undefined ? clientBucket(req.ip) : `key:${options.key}`;
}

function storeUnavailable(error: unknown, options: RateLimitOptions): ApiError {
  logger.error(
    { err: { message: (error as Error).message }, limit: options.name },
    'rate limit store unavailable; refusing',
  );
  return serviceUnavailable();
}

/** The limit's limiter on a ready connection, with its thresholds as read for this request. */
async function limiterOf(options: RateLimitOptions) {
  const limit = (options.limit ?? (() => getConfig().tokenRateLimit.limit))();
  const windowSeconds = (options.windowSeconds ?? (() => getConfig().tokenRateLimit.windowSeconds))();
  const redis = await readyConnection();
  if (redis.status !== 'ready' && options.whenStoreDown === 'count-per-process')
    logger.warn({ limit: options.name }, 'rate limit store unavailable; counting in this process alone');
  return { limit, limiter: limiterFor(redis, options, limit, windowSeconds) };
}

/**
 * Counts one request of this client against the named limit and says what is left, without
 * refusing when it is over (the caller decides); throws 503 when Redis cannot answer.
 */
export async function countRateLimit(options: RateLimitOptions, req: Pick<Request, 'ip'>): Promise<RateCount> {
  const { limit, limiter } = await limiterOf(options);
  let counted: RateLimiterRes;
  let over = false;
  try {
    counted = await limiter.consume(counterOf(options, req));
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw storeUnavailable(refusal, options);
    [counted, over] = [refusal, true];
  }
  const { consumedPoints: consumed, remainingPoints: remaining, msBeforeNext } = counted;
  return { limit, consumed, remaining, msBeforeNext, over };
}

/** The 429 of a count over its limit, with Retry-After. */
export function throttled({ limit, msBeforeNext }: Pick<RateCount, 'limit' | 'msBeforeNext'>): ApiError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(
    429,
    { detail: `Request was throttled. Expected available in ${retryAfter} seconds.` },
    {
      'Retry-After': String(retryAfter),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
    },
  );
}

/**
 * Counts one request of this client against the named limit and throws 429 (with Retry-After)
 * when it is over, or 503 when Redis cannot answer. Returns the count.
 */
export async function consumeRateLimit(options: RateLimitOptions, req: Pick<Request, 'ip'>): Promise<RateCount> {
  const counted = await countRateLimit(options, req);
  if (counted.over) throw throttled(counted);
  return counted;
}

/** Gives back one request counted in the named limit (it turned out not to be what the limit counts). */
export async function refundRateLimit(options: RateLimitOptions, req: Pick<Request, 'ip'>): Promise<void> {
  const { limiter } = await limiterOf(options);
  await limiter.reward(counterOf(options, req));
}

/** Forgets this client's count in the named limit, a block included: it starts again from nothing. */
export async function forgetRateLimit(options: RateLimitOptions, req: Pick<Request, 'ip'>): Promise<void> {
  const { limiter } = await limiterOf(options);
  await limiter.delete(counterOf(options, req));
}

/** Middleware form: limits every request of a route (the token endpoints by default config). */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  return async (req, res, next) => {
    const { limit, remaining } = await consumeRateLimit(options, req);
    res.set('RateLimit-Limit', String(limit)).set('RateLimit-Remaining', String(remaining));
    next();
  };
}
