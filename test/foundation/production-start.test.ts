/**
 * NODE_ENV=production refuses what is only safe on a developer's machine: no local secrets file is read or written,
 * every secret must be given, a short, placeholder or shared secret is refused, the local defaults pointing at the
 * sandbox are refused, and neither the sandbox nor npm start's local stack runs. A refused process exits 78 with one
 * line per reason, naming the variable, never its value.
 */
import '../helpers/env';
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { loadLocalSecrets } from '../../config/local-secrets';
import { chargebackIntegration, productionEnvironment, STRONG_REDIS_PASSWORD } from '../helpers/production';
import { runCommand } from '../helpers/processes';
import { makeTestPki } from '../helpers/pki';

const securedRedis = { REDIS_URL: 'rediss://redis.internal:6380', REDIS_PASSWORD: STRONG_REDIS_PASSWORD };

function refusal(t: import('ava').ExecutionContext, env: Record<string, string>): string {
  return t.throws(() => loadConfig(productionEnvironment({ ...securedRedis, ...env })), { instanceOf: ConfigError })!
    .message;
}

/** Runs an entry point as a process with this environment; its exit code and the lines of its stderr. */
async function run(entry: string, env: Record<string, string>) {
  const result = await runCommand(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: '0', SANDBOX_PORT: '0', ...env },
  });
  return { code: result.code, lines: result.stderr.trim().split('\n'), stdout: result.stdout };
}

test('a complete production environment loads', (t) => {
  const config = loadConfig(productionEnvironment(securedRedis));
  t.is(config.nodeEnv, 'production');
  t.is(config.acquirer.chargeback.clientId, '', 'the chargeback integration off, as given');
});

test('short, placeholder, patterned and shared secrets are refused, naming the variable and never the value', (t) => {
  const secrets = {
    DASHBOARD_PASSWORD: 'Tr0ub4dor&3x', // 12: enough locally, short for production
    SYSTEM_TOKEN: 'sys_changeme-changeme-changeme-changeme',
    ACQUIRER_NOTIFICATION_SECRET: 'ab'.repeat(20),
  };
  const message = refusal(t, { ...secrets, CARD_FINGERPRINT_KEY: productionEnvironment().JWT_SECRET });
  t.regex(message, /DASHBOARD_PASSWORD is too short for production \(12 characters, at least 16\)/);
  t.regex(message, /SYSTEM_TOKEN looks like a placeholder, not a random secret/);
  t.regex(message, /ACQUIRER_NOTIFICATION_SECRET is a pattern, not a random secret/);
  t.regex(message, /CARD_FINGERPRINT_KEY has the same value as JWT_SECRET: give each secret its own/);
  for (const value of [...Object.values(secrets), productionEnvironment().JWT_SECRET])
    t.false(message.includes(value), 'no secret value in the message');
});

test('the local defaults that point at the sandbox or this machine must be set, the acquirer over https', (t) => {
  const env = productionEnvironment(securedRedis);
  for (const name of [
    'ACQUIRER_BASE_URL',
    'ACQUIRER_MERCHANT_ID',
    'PUBLIC_BASE_URL',
    'ACQUIRER_CHARGEBACK_CLIENT_ID',
  ]) {
    const { [name]: _, ...without } = env;
    const message = t.throws(() => loadConfig(without), { instanceOf: ConfigError })!.message;
    t.regex(message, new RegExp(`${name} must be set in production`));
  }
  t.regex(refusal(t, { ACQUIRER_BASE_URL: 'http://10.0.0.7:8080' }), /ACQUIRER_BASE_URL must be an https:\/\/ URL/);
  t.regex(refusal(t, { WEBHOOK_TEST_ALLOW_HOSTS: '127.0.0.1:9999' }), /WEBHOOK_TEST_ALLOW_HOSTS is for tests only/);
});

test('the chargeback integration on needs its client, secret, URLs and mutual TLS certificate', async (t) => {
  t.regex(
    refusal(t, { ACQUIRER_CHARGEBACK_CLIENT_ID: 'payments-sandbox' }),
    /ACQUIRER_CHARGEBACK_CLIENT_ID is the sandbox client/,
  );
  t.regex(
    refusal(t, { ACQUIRER_CHARGEBACK_CLIENT_ID: 'loja-123', ACQUIRER_CHARGEBACK_CLIENT_SECRET: '' }),
    new RegExp(
      'chargeback integration is on .* but ACQUIRER_CHARGEBACK_CLIENT_SECRET, ACQUIRER_CHARGEBACK_BASE_URL, ' +
        'ACQUIRER_CHARGEBACK_AUTH_URL, ACQUIRER_CHARGEBACK_CLIENT_CERT, ACQUIRER_CHARGEBACK_CLIENT_KEY are not set',
    ),
  );
  const pki = await makeTestPki();
  const on = loadConfig(productionEnvironment({ ...securedRedis, ...chargebackIntegration(pki) }));
  t.regex(on.acquirer.tls.chargeback.cert, /BEGIN CERTIFICATE/, 'read from its file');
  fs.rmSync(pki.dir, { recursive: true, force: true });
});

test('production never reads or writes the local secrets file', (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'local-secrets-')), 'local-secrets.json');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    t.throws(() => loadLocalSecrets(file), { message: /never reads or writes the local secrets file/ });
  } finally {
    process.env.NODE_ENV = before;
  }
  t.false(fs.existsSync(file), 'not created');
  // This machine has a local secrets file; production still says every secret is missing.
  const message = t.throws(() => loadConfig({ NODE_ENV: 'production' }), { instanceOf: ConfigError })!.message;
  t.regex(message, /JWT_SECRET is required: .* \(production never uses generated secrets\)/);
});

test('a production web process with a weak secret exits 78 with the reason on one line', async (t) => {
  const { code, lines } = await run('src/web/server.ts', {
    ...productionEnvironment(securedRedis),
    DASHBOARD_PASSWORD: 'Tr0ub4dor&3x',
  });
  t.is(code, 78);
  t.deepEqual(lines, [
    'bad configuration:',
    '  DASHBOARD_PASSWORD is too short for production (12 characters, at least 16)',
  ]);
});

test('the sandbox never starts in production: exit 78, one line', async (t) => {
  const { code, lines } = await run('workers/sandbox.ts', productionEnvironment(securedRedis));
  t.is(code, 78);
  t.deepEqual(lines, ['bad configuration:', '  NODE_ENV=production: the acquirer sandbox never runs in production']);
});

test('npm start (the local stack) refuses production before starting anything', async (t) => {
  const { code, lines, stdout } = await run('src/devstack/start.ts', productionEnvironment(securedRedis));
  t.is(code, 78);
  t.is(lines.length, 2);
  t.regex(lines[1], /^ {2}NODE_ENV=production: npm start runs the local stack .* run the Procfile processes/);
  t.notRegex(stdout, /\[services\]|\[start\]/, 'no service checked or started');
});
