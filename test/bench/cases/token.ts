/**
 * POST /api/token/ against a bare route doing one indexed user read and one scrypt verify: the
 * unavoidable floor of any password login (scrypt is meant to be slow, so /healthz would make the
 * ratio meaningless). What the ratio shows is our cost on top: validation, the Redis rate limit,
 * JWT signing, helmet and logging.
 */
import { verifyPassword } from '../../../src/auth/crypto';
import { UserModel } from '../../../src/auth/model';
import { newMerchant } from '../../helpers/identity';
import type { BenchCase } from './types';

export const tokenCase: BenchCase = {
  name: 'token',
  route: 'POST /api/token/',
  // The per-IP and per-account limits would answer 429 to a load generator logging one account in
  // from one IP (the per-pair one too: a check counts while it runs, so more than its limit at once
  // are refused); raised for this run only.
  env: {
    TOKEN_RATE_LIMIT: '100000000',
    PASSWORD_ACCOUNT_RATE_LIMIT: '100000000',
    PASSWORD_CONSECUTIVE_FAILURE_LIMIT: '100000000',
  },
  baseline: 'bare Express: findOne user by e-mail (indexed) + one scrypt verify',
  mountBaseline(router) {
    router.post('/login', async (req, res) => {
      const user = await UserModel.findOne({ email: String(req.body?.username ?? '').toLowerCase() }).lean();
      const ok = user ? await verifyPassword(String(req.body?.password ?? ''), user.passwordHash) : false;
      res.status(ok ? 200 : 401).json({ ok });
    });
  },
  async prepare() {
    const merchant = await newMerchant();
    const body = JSON.stringify({ username: merchant.email, password: merchant.password });
    const headers = { 'content-type': 'application/json' };
    return {
      subject: { method: 'POST', path: '/api/token/', headers, body, expectStatus: 200 },
      baseline: { method: 'POST', path: '/baseline/token/login', headers, body, expectStatus: 200 },
    };
  },
};
