/**
 * Demo data for a newcomer's first `npm start`: on a database with no users, one demo merchant,
 * its user and a merchant token, printed once so the API can be called at once. Never in production.
 * Also where the operator secrets are (the system token, the dashboard password): never their values.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { getConfig, type Config } from '../../config';
import { LOCAL_SECRETS_FILE } from '../../config/local-secrets';
import { createMerchantWithToken, noUsersYet } from '../auth/service';
import { connectDatabase, disconnectDatabase } from '../db/connection';

export const DEMO = { companyName: 'Loja Demo LTDA', email: 'demo@example.com', login: 'demo' } as const;

/**
 * The demo merchant's establishment number (EC) at the acquirer, so chargebacks work for it at once.
 * Not one of the sandbox's trigger ECs: the sandbox generates realistic cases for it and applies the
 * acquirer's rules (docs/sandbox.md, Chargebacks). Establishments are unique per merchant; the seed
 * runs only on a database with no users, so nobody holds it yet.
 */
export const DEMO_ESTABLISHMENT = '1234567890';

export interface DemoCredentials {
  merchant_id: number;
  user_id: number;
  email: string;
  login: string;
  password: string;
  merchant_token: string;
  establishment_numbers: string[];
}

/** Creates the demo merchant when no user exists yet; null when the database already has users. */
export async function seedIfEmpty(): Promise<DemoCredentials | null> {
  if (!(await noUsersYet())) return null;
  const password = crypto.randomBytes(9).toString('base64url');
  const { merchant, user, token } = await createMerchantWithToken({
    ...DEMO,
    password,
    establishmentNumbers: [DEMO_ESTABLISHMENT],
  });
  return {
    merchant_id: merchant._id,
    user_id: user._id,
    email: user.email,
    login: user.login,
    password,
    merchant_token: token,
    establishment_numbers: merchant.establishmentNumbers,
  };
}

export function describeDemo(demo: DemoCredentials, baseUrl: string): string {
  const login = JSON.stringify({ username: demo.email, password: demo.password });
  const establishments = JSON.stringify({ establishmentNumber: demo.establishment_numbers.map(Number) });
  return [
    '[seed] empty database: created a demo merchant (shown once; `npm run cli` manages merchants):',
    `[seed] ${JSON.stringify(demo)}`,
    `[seed]   curl -s -X POST ${baseUrl}/api/token/ -H 'content-type: application/json' -d '${login}'`,
    `[seed]   curl -s ${baseUrl}/api/v1/me/ -H 'authorization: Bearer ${demo.merchant_token}'`,
    `[seed]   a test card to sell with (docs/cards.md): npm run -s cli -- card:encrypt --number 4000000000000010 ` +
      `--exp-month 12 --exp-year ${new Date().getUTCFullYear() + 3} --cvv 123`,
    `[seed]   chargebacks of its sandbox establishment ${demo.establishment_numbers.join(', ')}: curl -s -X ` +
      `POST '${baseUrl}/api/v1/acquirer/chargeback/consult/?status=PENDING' ` +
      `-H 'authorization: Bearer ${demo.merchant_token}' -H 'content-type: application/json' -d '${establishments}'`,
    '',
  ].join('\n');
}

/** Secret names an operator or newcomer asks for first. */
const OPERATOR_SECRETS = ['SYSTEM_TOKEN', 'DASHBOARD_PASSWORD'] as const;

/**
 * Where the system token and the dashboard password are, printed by every `npm start`. Never a
 * value: in development the generated file's path and the dashboard user; in production (whose
 * output may go to a log file) only the names of the variables they come from.
 */
export function describeSecretLocations(
  config: Pick<Config, 'nodeEnv' | 'publicBaseUrl' | 'dashboard'>,
  env: NodeJS.ProcessEnv = process.env,
  secretsFile = LOCAL_SECRETS_FILE,
): string {
  if (config.nodeEnv === 'production') {
    return (
      `[start] production: ${OPERATOR_SECRETS.join(' and ')} come from the environment (DASHBOARD_USER names the ` +
      `dashboard user); their values are never printed\n`
    );
  }
  const shown = path.relative(process.cwd(), secretsFile) || secretsFile;
  const where = (name: string) => (env[name] ? `the ${name} environment variable` : `${name} in ${shown}`);
  return [
    `[start] secrets of this local run (generated once, git-ignored): ${shown}`,
    `[start]   system token (Authorization: Bearer ...): ${where('SYSTEM_TOKEN')}`,
    `[start]   dashboard ${config.publicBaseUrl}/admin/queues and /metrics: user "${config.dashboard.user}", ` +
      `password ${where('DASHBOARD_PASSWORD')}`,
    `[start]   e.g. node -p "require('./${shown.split(path.sep).join('/')}').SYSTEM_TOKEN"`,
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
