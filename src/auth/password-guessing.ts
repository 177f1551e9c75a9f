/**
 * Password guessing: every way a password is checked (POST /api/token/, basic auth with a staff
 * e-mail, the operator's DASHBOARD_PASSWORD) counts against one budget per client address
 * (TOKEN_RATE_LIMIT per TOKEN_RATE_WINDOW_SECONDS) and one per account (PASSWORD_ACCOUNT_RATE_LIMIT
 * per PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS), shared by every web process. The address budget stops
 * one client trying many accounts; the account budget stops many addresses trying one account (it
 * also lets anyone hold an account's password logins off for a window: a bearer token keeps working
 * meanwhile).
 *
 * Fail closed: while Redis cannot answer, no password is checked (503). No in-memory insurance
 * here: each process would grant its own budget, and a failover or an outage would hand an
 * attacker that many fresh budgets per process while nobody is watching the counters.
 */
import type { Request, RequestHandler } from 'express';
import { getConfig } from '../../config';
import { sha256Hex } from '../platform/digests';
import { consumeRateLimit } from '../http/rate-limit';
import { bodyField } from './schemas';

/** The address budget's name: the token route's own per-address limit is this budget. */
export const PASSWORD_CHECKS_BY_ADDRESS = 'password';
export const PASSWORD_CHECKS_BY_ACCOUNT = 'password-account';

/**
 * Counts one password check for `account` (an e-mail or the operator's user name, in any case)
 * from this client; throws 429 once either budget is spent, 503 when Redis cannot answer. The
 * address first: a client refused for its address spends nothing of the account's budget. An
 * account is counted under a digest of its name, so the limiter's keys hold no e-mail addresses.
 */
export async function countPasswordCheck(
  req: Request,
  account: string | undefined,
): Promise<{ limit: number; remaining: number }> {
  const byAddress = await consumeRateLimit({ name: PASSWORD_CHECKS_BY_ADDRESS }, req);
  if (account) {
    await consumeRateLimit(
      {
        name: PASSWORD_CHECKS_BY_ACCOUNT,
        key: sha256Hex(account.trim().toLowerCase()),
        limit: () => getConfig().passwordAccountRateLimit.limit,
        windowSeconds: () => getConfig().passwordAccountRateLimit.windowSeconds,
      },
      req,
    );
  }
  return byAddress;
}

/**
 * The token route's limit: every request counts against the address budget (a malformed one too,
 * as before), and one that names an account against that account's budget.
 */
export const limitTokenRequests: RequestHandler = async (req, res, next) => {
  const username = bodyField(req, 'username');
  const { limit, remaining } = await countPasswordCheck(req, typeof username === 'string' ? username : undefined);
  res.set('RateLimit-Limit', String(limit)).set('RateLimit-Remaining', String(remaining));
  next();
};
