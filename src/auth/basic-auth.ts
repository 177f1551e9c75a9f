/**
 * Basic auth for what operators open in a browser or scrape (the queue dashboard, /metrics): the
 * operator's password or a staff login, or a staff bearer credential.
 */
import type { Request, RequestHandler, Response } from 'express';
import { getConfig } from '../../config';
import { safeEqual, sha256Hex } from '../platform/digests';
import { ApiError, serviceUnavailable } from '../platform/errors';
import { STAFF_CREDENTIALS } from '../http/credential-policy';
import { authenticateUser } from './service';
import { authorize } from './authenticate';
import { UserModel } from './model';
import { isCurrentSession, type SessionState } from './tokens';
import { readOne } from '../db/reads';
import { countPasswordCheck } from './password-guessing';

/** A staff login verified recently: bull-board polls its API every few seconds, and scrypt is costly. */
const STAFF_LOGIN_REMEMBERED_MS = 60_000;
/**
 * SHA-256 of the Authorization header -> until when it is remembered, and for a staff login the
 * user's session version then: a password change or an ended session ends the remembered login too.
 */
const rememberedStaffLogins = new Map<string, { until: number; session?: { userId: number; ver: number } }>();

/** A remembered login still valid: in time, and for a staff user, the same session (one read by id, no scrypt). */
async function isRemembered(key: string): Promise<boolean> {
  const remembered = rememberedStaffLogins.get(key);
  if (!remembered || remembered.until <= Date.now()) return false;
  if (!remembered.session) return true;
  const fields = { tokenVersion: 1, deactivatedAt: 1 } as const;
  const user = await readOne<SessionState>(UserModel, { _id: remembered.session.userId }, fields);
  return Boolean(user && isCurrentSession({ ver: remembered.session.ver }, user));
}

function remember(key: string, session?: { userId: number; ver: number }): void {
  if (rememberedStaffLogins.size >= 1000) rememberedStaffLogins.clear();
  rememberedStaffLogins.set(key, { until: Date.now() + STAFF_LOGIN_REMEMBERED_MS, session });
}

/**
 * A staff user's complete e-mail and password. Each password check counts against the limits the
 * token route's checks count against (password-guessing.ts), so basic auth is no way around them.
 */
async function isStaffLogin(req: Request, email: string, password: string): Promise<boolean> {
  const key = sha256Hex(req.headers.authorization ?? '');
  if (await isRemembered(key)) return true;
  rememberedStaffLogins.delete(key);
  const check = await countPasswordCheck(req, email);
  const user = await authenticateUser(email, password);
  if (user) await check.passed();
  if (user?.role !== 'staff') return false;
  remember(key, { userId: user._id, ver: user.tokenVersion ?? 0 });
  return true;
}

/**
 * The operator's DASHBOARD_USER/DASHBOARD_PASSWORD. Each check counts against the same limits as a
 * staff password (the account is the user name), so it cannot be guessed without limit; a
 * correct one is remembered like a staff login, so a scraper or bull-board's polling is not counted
 * each time. While Redis is down no password is checked (503), this one included: a scraper that
 * must see that outage reads /metrics with the system token as bearer, which is no password.
 */
async function isOperatorLogin(req: Request, name: string, secret: string): Promise<boolean> {
  const { user, password } = getConfig().dashboard;
  const key = sha256Hex(req.headers.authorization ?? '');
  if (await isRemembered(key)) return true;
  const check = await countPasswordCheck(req, name);
  if (!(safeEqual(name, user) && safeEqual(secret, password))) return false;
  await check.passed();
  remember(key);
  return true;
}

function answerError(res: Response, error: unknown): void {
  const known = error instanceof ApiError ? error : serviceUnavailable();
  res.set(known.headers).status(known.status).json(known.body);
}

/**
 * Staff only. Basic auth with DASHBOARD_USER/DASHBOARD_PASSWORD or a staff user's complete e-mail
 * and password (what a browser can send), or a bearer credential that STAFF_CREDENTIALS accepts
 * (a staff user's JWT or the system token). Errors are answered here because this middleware
 * also guards apps without our error handler (the worker's /metrics).
 */
export function basicAuth(realm: string): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization ?? '';
    if (/^Bearer /i.test(header)) {
      try {
        await authorize(req, STAFF_CREDENTIALS);
      } catch (error) {
        return answerError(res, error);
      }
      return next();
    }
    const match = /^Basic (.+)$/i.exec(header);
    if (match) {
      const decoded = Buffer.from(match[1], 'base64').toString('utf8');
      const sep = decoded.indexOf(':');
      const [name, secret] = [decoded.slice(0, sep), decoded.slice(sep + 1)];
      if (sep > 0) {
        let allowed: boolean;
        try {
          const staffLogin = name.includes('@') && !safeEqual(name, getConfig().dashboard.user);
          allowed = staffLogin ? await isStaffLogin(req, name, secret) : await isOperatorLogin(req, name, secret);
        } catch (error) {
          return answerError(res, error);
        }
        if (allowed) return next();
      }
    }
    res.set('WWW-Authenticate', `Basic realm="${realm}"`).status(401).json({ detail: 'Authentication required.' });
  };
}
