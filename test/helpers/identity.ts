/** Creates merchants, staff and their credentials through the real identity service. */
import crypto from 'node:crypto';
import { createMerchantWithToken, createStaffUser } from '../../src/auth/service';
import { signToken } from '../../src/auth/tokens';
import { getConfig } from '../../config';
import { call } from './http';

export interface TestMerchant {
  merchantId: number;
  userId: number;
  email: string;
  login: string;
  password: string;
  /** JWT access token of the merchant's user. */
  accessToken: string;
  /** Individual merchant token (mt_...). */
  merchantToken: string;
}

export async function newMerchant(
  options: { companyName?: string; establishmentNumbers?: string[] } = {},
): Promise<TestMerchant> {
  const tag = crypto.randomBytes(4).toString('hex');
  const password = `pw-${tag}-Secret!`;
  const { merchant, user, token } = await createMerchantWithToken({
    companyName: options.companyName ?? `Loja ${tag} LTDA`,
    email: `owner-${tag}@example.com`,
    login: `owner${tag}`,
    password,
    establishmentNumbers: options.establishmentNumbers,
  });
  return {
    merchantId: merchant._id,
    userId: user._id,
    email: user.email,
    login: user.login,
    password,
    accessToken: signToken('access', user),
    merchantToken: token,
  };
}

export async function newStaff(): Promise<{ userId: number; email: string; password: string; accessToken: string }> {
  const tag = crypto.randomBytes(4).toString('hex');
  const password = `pw-${tag}-Staff!`;
  const user = await createStaffUser({ email: `staff-${tag}@example.com`, login: `staff${tag}`, password });
  return { userId: user._id, email: user.email, password, accessToken: signToken('access', user) };
}

export function systemToken(): string {
  return getConfig().systemToken;
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}

/** Token requests with the merchant's credentials, sent to each web process in turn: their statuses, in order. */
export async function tokenStatusesAcross(
  webUrls: string[],
  merchant: Pick<TestMerchant, 'email' | 'password'>,
  count: number,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await call(
      { url: webUrls[i % webUrls.length] },
      'POST',
      '/api/token/',
      {},
      {
        username: merchant.email,
        password: merchant.password,
      },
    );
    statuses.push(res.status);
  }
  return statuses;
}
