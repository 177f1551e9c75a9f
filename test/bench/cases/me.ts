/**
 * GET /api/v1/me/ with a merchant user's JWT against a bare route doing one read of the user by
 * _id: the floor of any authenticated read. The ratio shows passport-jwt, the credential policy,
 * the merchant lookup, helmet and logging.
 */
import { UserModel } from '../../../src/auth/model';
import { newMerchant } from '../../helpers/identity';
import { readBaseline } from './read-baseline';
import type { BenchCase } from './types';

export const meCase: BenchCase = {
  name: 'me',
  route: 'GET /api/v1/me/',
  baseline: 'bare Express: one findById of the user (indexed _id), answered as JSON',
  mountBaseline: readBaseline('/user/:id', (req) =>
    UserModel.findById(Number(req.params.id), { email: 1, login: 1, merchantId: 1 }).lean(),
  ),
  async prepare() {
    const merchant = await newMerchant();
    return {
      subject: {
        method: 'GET',
        path: '/api/v1/me/',
        headers: { authorization: `Bearer ${merchant.accessToken}` },
        expectStatus: 200,
      },
      baseline: { method: 'GET', path: `/baseline/me/user/${merchant.userId}`, expectStatus: 200 },
    };
  },
};
