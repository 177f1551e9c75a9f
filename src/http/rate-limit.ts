/**
 * Per-client-IP rate limits kept in Redis, so every web process counts against the same limit.
 *
 * A sliding log: one sorted set per (limit name, client) holding the times of the requests let
 * through in the last window. One Lua script trims, counts and adds atomically, using Redis's own
 * clock so processes on several machines agree. A request is let through when fewer than `limit`
 * were let through in the last `windowSeconds`; a refused one is not recorded, so a client that
 * keeps hammering is free again one window after its oldest accepted request.
 *
 * The client is req.ip: the socket address unless the app's 'trust proxy' (TRUST_PROXY) says which
 * proxies' X-Forwarded-For to believe. IPv6 clients are counted per /64, the block one subscriber
 * usually holds. When Redis cannot answer, a limited route answers 503 rather than go unlimited,
 * unless it says otherwise (whenStoreDown).
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { Request, RequestHandler } from 'express';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { createRedisConnection, type RedisClient } from '../platform/redis';
import { ApiError } from '../platform/errors';

const SLIDING_LOG = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window_ms)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window_ms)
  return {1, limit - count - 1, 0}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, 0, tonumber(oldest[2]) + window_ms - now}
`;

type LimitedRedis = RedisClient & {
  slidingLogHit(key: string, limit: number, windowMs: number, member: string): Promise<[number, number, number]>;
};

const READY_WAIT_MS = 1000;
let connection: LimitedRedis | undefined;

/** The limiter's own connection, recreated after closeQueues() ended it; waits briefly while it connects. */
async function readyConnection(): Promise<LimitedRedis> {
  if (!connection || connection.status === 'end') {
    connection = createRedisConnection() as LimitedRedis;
    connection.defineCommand('slidingLogHit', { numberOfKeys: 1, lua: SLIDING_LOG });
  }
  const current = connection;
  if (current.status !== 'ready') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, READY_WAIT_MS);
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
   * When Redis cannot answer: 'refuse' (503, the default: the token endpoints must not run
   * unlimited) or 'allow' (let the request through unlimited, with a warning logged), for a route
   * whose other guards hold without Redis and whose outage would cost more than the limit saves.
   */
  whenStoreDown?: 'refuse' | 'allow';
  /** Counts per this key (a merchant, an event) instead of per client address. */
  key?: string;
}

export function rateLimitKey(name: string, req: Request): string {
  return `${getConfig().queuePrefix}:ratelimit:${name}:${clientBucket(req.ip)}`;
}

/**
 * Counts one request of this client against the named limit and throws 429 (with Retry-After)
 * when it is over, or 503 when Redis cannot answer. Returns the limit and what is left of it.
 */
export async function consumeRateLimit(
  options: RateLimitOptions,
  req: Request,
): Promise<{ limit: number; remaining: number | null }> {
  const limit = (options.limit ?? (() => getConfig().tokenRateLimit.limit))();
  const windowMs = (options.windowSeconds ?? (() => getConfig().tokenRateLimit.windowSeconds))() * 1000;
  let allowed: number;
  let remaining: number;
  let retryMs: number;
  try {
    const redis = await readyConnection();
    const key =
      options.key === undefined
        ? rateLimitKey(options.name, req)
        : `${getConfig().queuePrefix}:ratelimit:${options.name}:key:${options.key}`;
    [allowed, remaining, retryMs] = await redis.slidingLogHit(key, limit, windowMs, crypto.randomUUID());
  } catch (error) {
    if (options.whenStoreDown === 'allow') {
      logger.warn(
        { err: { message: (error as Error).message }, limit: options.name },
        'rate limit store unavailable; letting the request through unlimited',
      );
      return { limit, remaining: null };
    }
    logger.error(
      { err: { message: (error as Error).message }, limit: options.name },
      'rate limit store unavailable; refusing',
    );
    throw new ApiError(503, { detail: 'Service temporarily unavailable, try again shortly.' }, { 'Retry-After': '5' });
  }
  if (allowed !== 1) {
    const retryAfter = Math.max(1, Math.ceil(retryMs / 1000));
    throw new ApiError(
      429,
      { detail: `Request was throttled. Expected available in ${retryAfter} seconds.` },
      {
        'Retry-After': String(retryAfter),
        'RateLimit-Limit': String(limit),
        'RateLimit-Remaining': '0',
      },
    );
  }
  return { limit, remaining };
}

/** Middleware form: limits every request of a route (the token endpoints by default config). */
export function rateLimit(options: RateLimitOptions): RequestHandler {
  return async (req, res, next) => {
    const { limit, remaining } = await consumeRateLimit(options, req);
    if (remaining !== null) res.set('RateLimit-Limit', String(limit)).set('RateLimit-Remaining', String(remaining));
    next();
  };
}
