/**
 * Demo data for a newcomer's first `npm start`: on a database with no users, one demo merchant,
 * its user and a merchant token, printed once so the API can be called at once. Never in production.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { createMerchant, issueMerchantToken, noUsersYet } from '../auth/service';
import { connectDatabase, disconnectDatabase } from '../db/connection';

export const DEMO = { companyName: 'Loja Demo LTDA', email: 'demo@example.com', login: 'demo' } as const;

export interface DemoCredentials {
  merchant_id: number;
  user_id: number;
  email: string;
  login: string;
  password: string;
  merchant_token: string;
}

/** Creates the demo merchant when no user exists yet; null when the database already has users. */
export async function seedIfEmpty(): Promise<DemoCredentials | null> {
  if (!(await noUsersYet())) return null;
  const password = crypto.randomBytes(9).toString('base64url');
  const { merchant, user } = await createMerchant({ ...DEMO, password });
  const { token } = await issueMerchantToken(merchant._id);
  return { merchant_id: merchant._id, user_id: user._id, email: user.email, login: user.login, password, merchant_token: token };
}

export function describeDemo(demo: DemoCredentials, baseUrl: string): string {
  return [
    '[seed] empty database: created a demo merchant (shown once; `npm run cli` manages merchants):',
    `[seed] ${JSON.stringify(demo)}`,
    `[seed]   curl -s -X POST ${baseUrl}/api/token/ -H 'content-type: application/json' -d '{"username":"${demo.email}","password":"${demo.password}"}'`,
    `[seed]   curl -s ${baseUrl}/api/v1/me/ -H 'authorization: Bearer ${demo.merchant_token}'`,
    '',
  ].join('\n');
}

/** Called by `npm start` before the processes start; opens and closes its own connection. */
export async function seedDemoData(): Promise<void> {
  const config = getConfig();
  if (config.nodeEnv === 'production') return;
  await connectDatabase(config.mongodbUri);
  try {
    const demo = await seedIfEmpty();
    if (demo) process.stdout.write(describeDemo(demo, config.publicBaseUrl));
  } finally {
    await disconnectDatabase();
  }
}
