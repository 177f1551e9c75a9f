/**
 * Password guessing: every way a password is checked (POST /api/token/, basic auth with a staff
 * e-mail, the operator's DASHBOARD_PASSWORD) counts against the same limits, shared by every web
 * process. The scheme is the one rate-limiter-flexible documents as login endpoint protection:
 *
 * - every check, per client address: TOKEN_RATE_LIMIT per TOKEN_RATE_WINDOW_SECONDS (a request rate);
 * - failed checks per address over a day, all accounts together (PASSWORD_ADDRESS_FAILURE_LIMIT per
 *   PASSWORD_ADDRESS_FAILURE_WINDOW_SECONDS): slow guessing from one address;
 * - consecutive failed checks per account AND address (PASSWORD_CONSECUTIVE_FAILURE_LIMIT, then that
 *   pair is refused for PASSWORD_CONSECUTIVE_BLOCK_SECONDS): a success there starts it again, and a
 *   stranger's failures elsewhere never touch it;
 * - failed checks per account from all addresses (PASSWORD_ACCOUNT_RATE_LIMIT per
 *   PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS): once spent, an address that has failed at that account
 *   is refused, but one that has not (a clean pair) is still checked. A stranger spending the budget
 *   thus slows guessing to one check per new address, and cannot keep the owner out (issue 39: a
 *   per-account limit on every check let ten guesses a minute hold an account off for good).
 *
 * A check is counted when it starts and given back when it succeeds, not counted after it fails:
 * counting afterwards would let concurrent guesses all pass a count read before any of them failed.
 *
 * Fail closed: while Redis cannot answer, no password is checked (503). No in-memory insurance
 * here: each process would grant its own budget, and a failover or an outage would hand an
 * attacker that many fresh budgets per process while nobody is watching the counters.
 */
import type { Request } from 'express';
import { getConfig } from '../../config';
import { sha256Hex } from '../platform/digests';
import { logger } from '../platform/logger';
import { ApiError } from '../platform/errors';
import {
  clientBucket,
  consumeRateLimit,
  countRateLimit,
  forgetRateLimit,
  refundRateLimit,
  throttled,
  type RateLimitOptions,
} from '../http/rate-limit';

/** The per-address budget of every check: the token route's own per-address limit is this budget. */
export const PASSWORD_CHECKS_BY_ADDRESS = 'password';
/** Failed checks per account, all addresses together. */
export const PASSWORD_CHECKS_BY_ACCOUNT = 'password-account';
export const PASSWORD_FAILURES_BY_ADDRESS = 'password-address-failures';
export const PASSWORD_FAILURES_BY_PAIR = 'password-pair';

/**
 * How long a pair's failures are remembered without a success (the scheme's 90 days): long enough
 * that guessing slower than the pair limit still meets it, and that an address which failed at an
 * account stays unclean for its budget.
 */
const PAIR_MEMORY_SECONDS = 90 * 24 * 60 * 60;

/** One password check in progress: the per-address budget it left, and how to report a success. */
export interface PasswordCheck {
  limit: number;
  remaining: number;
  /** The password was right: gives the failure counts back and starts this pair's count again. */
  passed(): Promise<void>;
}

/** The failure counters of a check of `account` (an e-mail or the operator's user name, any case). */
function failureLimits(account: string, req: Pick<Request, 'ip'>) {
  // Counted under a digest of the name, so the limiter's keys hold no e-mail addresses.
  const digest = sha256Hex(account.trim().toLowerCase());
  const config = () => getConfig();
  const byAddress: RateLimitOptions = {
    name: PASSWORD_FAILURES_BY_ADDRESS,
    limit: () => config().passwordAddressFailures.limit,
    windowSeconds: () => config().passwordAddressFailures.windowSeconds,
  };
  const byPair: RateLimitOptions = {
    name: PASSWORD_FAILURES_BY_PAIR,
    key: `${digest}:${clientBucket(req.ip)}`,
    limit: () => config().passwordConsecutiveFailures.limit,
    windowSeconds: () => PAIR_MEMORY_SECONDS,
    blockSeconds: () => config().passwordConsecutiveFailures.blockSeconds,
  };
  const byAccount: RateLimitOptions = {
    name: PASSWORD_CHECKS_BY_ACCOUNT,
    key: digest,
    limit: () => config().passwordAccountRateLimit.limit,
    windowSeconds: () => config().passwordAccountRateLimit.windowSeconds,
  };
  return { byAddress, byPair, byAccount };
}

/** Best effort: a count not given back only makes the limit stricter for its window. */
async function settle(what: string, changes: Promise<void>[]): Promise<void> {
  for (const outcome of await Promise.allSettled(changes))
    if (outcome.status === 'rejected')
      logger.warn({ err: { message: (outcome.reason as Error).message } }, `password limits: ${what} failed`);
}

/**
 * Counts one password check for `account` from this client; throws 429 once a limit refuses it,
 * 503 when Redis cannot answer. The limits are asked in order, per address first: a check refused
 * by one gives back what the ones before counted, so a refused check is no failure anywhere (the
 * per-address request budget aside), and a client refused for its address spends nothing of the
 * account's budget. Call passed() when the password was right.
 */
export async function countPasswordCheck(req: Request, account: string | undefined): Promise<PasswordCheck> {
  const { limit, remaining } = await consumeRateLimit({ name: PASSWORD_CHECKS_BY_ADDRESS }, req);
  if (!account) return { limit, remaining, passed: async () => undefined };
  const { byAddress, byPair, byAccount } = failureLimits(account, req);
  const counted: RateLimitOptions[] = [];
  try {
    await consumeRateLimit(byAddress, req);
    counted.push(byAddress);
    const pair = await consumeRateLimit(byPair, req);
    counted.push(byPair);
    const ofAccount = await countRateLimit(byAccount, req);
    counted.push(byAccount);
    // The first check of a pair is the one that finds it clean, however many arrive at once.
    if (ofAccount.over && pair.consumed > 1) throw throttled(ofAccount);
  } catch (refusal) {
    if (refusal instanceof ApiError && refusal.status === 429)
      await settle(
        'giving back a refused check',
        counted.map((options) => refundRateLimit(options, req)),
      );
    throw refusal;
  }
  return {
    limit,
    remaining,
    passed: () =>
      settle('recording a success', [
        forgetRateLimit(byPair, req),
        refundRateLimit(byAddress, req),
        refundRateLimit(byAccount, req),
      ]),
  };
}
