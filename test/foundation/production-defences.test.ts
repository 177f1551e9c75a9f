/**
 * NODE_ENV=production refuses well-formed settings that would undo a defence: a card or client key short enough to
 * factor, a TRUST_PROXY that lets any client choose its address, a MongoDB on another machine without credentials
 * and TLS, the sandbox's settings or this machine in place of the acquirer, rate limits far above their range. Each
 * is shown on a real web process: started with otherwise safe settings, it exits 78 with one line naming the
 * variable (and it starts with the safe settings themselves).
 */
import '../helpers/env';
import test from 'ava';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, EXIT_BAD_CONFIGURATION, loadConfig } from '../../config';
import { chargebackIntegration, productionEnvironment } from '../helpers/production';
import { nodeArgumentsFor, runCommand, startProcess } from '../helpers/processes';
import { makeTestPki, type TestPki } from '../helpers/pki';

/** Safe, with the Redis of this machine (its refusals are redis-config.test.ts's): the web process really starts. */
const safe = (env: Record<string, string> = {}) =>
  productionEnvironment({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_ALLOW_INSECURE: 'true', ...env });

let pki: TestPki;
/** A 512-bit RSA client certificate and its key, as files: a pair that fits, only too short. */
let shortClient: { cert: string; key: string };
test.before(async () => {
  pki = await makeTestPki();
  const [cert, key] = [path.join(pki.dir, 'short.crt'), path.join(pki.dir, 'short.key')];
  // prettier-ignore
  const made = await runCommand('openssl', ['req', '-x509', '-newkey', 'rsa:512', '-nodes', '-keyout', key, '-out',
    cert, '-days', '2', '-subj', '/CN=short client']);
  if (made.code !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  shortClient = { cert, key };
});
test.after.always(() => {
  if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
});

/** A card key pair of this many bits, as the card variables take it. */
function cardKeys(bits: number) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { CARD_RSA_PRIVATE_KEY: privateKey, CARD_RSA_PUBLIC_KEY: publicKey };
}

/**
 * Starts a production web process with this environment. A refused one: its exit code and the lines it wrote.
 * One that starts instead (the setting accepted) is stopped and said so, rather than waited on.
 */
async function startRefused(env: Record<string, string>): Promise<{ code: string; lines: string[] }> {
  try {
    const web = await startProcess('web', env);
    await web.stop();
    return { code: 'none: the web process started', lines: [] };
  } catch (error) {
    const [, code = 'unknown', output = String(error)] =
      /exited \((\w+)\) before ready:\n([\s\S]*)$/.exec((error as Error).message) ?? [];
    return { code, lines: output.trim().split('\n') };
  }
}

/** Each refusal: the settings added to safe ones, and the one line the process must write. */
const REFUSALS: [title: string, env: () => Record<string, string>, line: string][] = [
  [
    'a 512-bit card key pair',
    () => cardKeys(512),
    'CARD_RSA_PRIVATE_KEY is a 512-bit RSA key: production takes at least 2048 bits (shorter keys can be broken)',
  ],
  [
    "a 512-bit key for the chargeback API's mutual TLS",
    () => ({
      ...chargebackIntegration(pki),
      ACQUIRER_CHARGEBACK_CLIENT_CERT: shortClient.cert,
      ACQUIRER_CHARGEBACK_CLIENT_KEY: shortClient.key,
    }),
    'ACQUIRER_CHARGEBACK_CLIENT_KEY is a 512-bit RSA key: production takes at least 2048 bits (shorter keys can ' +
      'be broken)',
  ],
  [
    'TRUST_PROXY=true',
    () => ({ TRUST_PROXY: 'true' }),
    'TRUST_PROXY=true trusts any X-Forwarded-For, so every client chooses the address its per-IP limits count: ' +
      'give the number of proxies in front, or their addresses or ranges',
  ],
  [
    'a TRUST_PROXY hop count beyond any real chain of proxies',
    () => ({ TRUST_PROXY: '30' }),
    'TRUST_PROXY counts 30 proxy hops: production takes at most 5 (hops beyond the proxies really in front are ' +
      'written by the client)',
  ],
  [
    'a MongoDB on another machine without credentials or TLS',
    () => ({ MONGODB_URI: 'mongodb://db.internal:27017/payments' }),
    'MONGODB_URI reaches another machine with no credentials (a user in MONGODB_URI, or ' +
      'authMechanism=MONGODB-X509) and no TLS (tls=true in MONGODB_URI, or mongodb+srv://) in production; or set ' +
      'MONGODB_ALLOW_INSECURE=true to accept it (e.g. a database reachable from these machines only)',
  ],
  [
    'an acquirer URL on this machine',
    () => ({ ACQUIRER_BASE_URL: 'https://localhost:8443' }),
    'ACQUIRER_BASE_URL points at this machine (a loopback address): production calls the acquirer, not a local ' +
      'sandbox',
  ],
  [
    "the acquirer's sandbox",
    () => ({ ACQUIRER_QUERY_URL: 'https://apisandbox.cieloecommerce.cielo.com.br' }),
    "ACQUIRER_QUERY_URL is a sandbox's address (its host or path says sandbox): production calls the acquirer's " +
      'live API',
  ],
  [
    "the sandbox's MerchantId",
    () => ({ ACQUIRER_MERCHANT_ID: '6f1f7b1e-2c1a-4a8e-9d4e-3b2c1a0f9e8d' }),
    "ACQUIRER_MERCHANT_ID is the sandbox's MerchantId (its local default): set the one the acquirer gave",
  ],
  [
    'a setting of the sandbox',
    () => ({ SANDBOX_NOTIFY_URL: 'https://pagamentos.loja.com.br' }),
    'SANDBOX_NOTIFY_URL is a setting of the sandbox, which never runs in production: remove it',
  ],
  [
    'a rate limit far above its range',
    () => ({ TOKEN_RATE_LIMIT: '10000' }),
    'TOKEN_RATE_LIMIT is 10000, far above its range: production takes at most 100 per window (10 times the ' +
      'default 10)',
  ],
  [
    'a rate window so short that the rate is far above its range',
    () => ({ PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS: '1' }),
    'PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS is 1 s, so PASSWORD_ACCOUNT_RATE_LIMIT=10 lets 600 a minute through, ' +
      'far above its range: production takes at most 100 a minute (10 times the default 10 per 60 s)',
  ],
];

// One process at a time: a dozen web processes compiling at once on a busy machine take longer than a start may.
for (const [title, env, line] of REFUSALS)
  test.serial(`a production web process refuses ${title}: exit 78, one line naming the variable`, async (t) => {
    const { code, lines } = await startRefused(safe(env()));
    t.is(code, String(EXIT_BAD_CONFIGURATION), lines.join('\n'));
    t.deepEqual(lines, ['bad configuration:', `  ${line}`]);
  });

test.serial('a production web process with safe settings starts and is ready', async (t) => {
  const env = safe({
    ...chargebackIntegration(pki),
    ...cardKeys(2048),
    TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.168.1.7',
    TOKEN_RATE_LIMIT: '100',
    PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS: '6',
    CHECKOUT_PAY_RATE_LIMIT: '300',
  });
  // As a release does: the migrations first, else production refuses to start (test/db/migrations.test.ts).
  const release = await runCommand(process.execPath, nodeArgumentsFor('workers/migrate.ts'), {
    env: { ...process.env, ...env },
  });
  t.is(release.code, 0, release.stderr);
  const web = await startProcess('web', env);
  try {
    const answer = await fetch(`${web.url}/readyz`);
    t.is(answer.status, 200, await answer.text());
  } finally {
    await web.stop();
  }
});

function problemsOf(t: import('ava').ExecutionContext, env: Record<string, string>): string {
  return t.throws(() => loadConfig(safe(env)), { instanceOf: ConfigError })!.message;
}

test('TRUST_PROXY takes a hop count or proxy addresses and ranges; the forms that trust everyone are refused', (t) => {
  for (const trusted of ['false', '1', '5', 'loopback', 'uniquelocal, 10.0.0.0/255.0.0.0', '2001:db8::/32'])
    t.is(loadConfig(safe({ TRUST_PROXY: trusted })).trustProxy, trusted);
  t.regex(problemsOf(t, { TRUST_PROXY: '6' }), /TRUST_PROXY counts 6 proxy hops: production takes at most 5/);
  t.regex(problemsOf(t, { TRUST_PROXY: '10.0.0.1, 0.0.0.0/0' }), /TRUST_PROXY lists a \/0 range/);
  t.regex(problemsOf(t, { TRUST_PROXY: '::/0' }), /TRUST_PROXY lists a \/0 range/);
  // In every environment: what Express's trust proxy would only reject once the app is built.
  for (const malformed of ['yes', '10.0.0.0/33', '10.0.0.1,', 'loopback;10.0.0.1'])
    t.regex(
      t.throws(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: malformed }))!.message,
      /TRUST_PROXY is invalid/,
      malformed,
    );
});

test('MongoDB on another machine needs credentials and verified TLS, or MONGODB_ALLOW_INSECURE', (t) => {
  for (const uri of [
    'mongodb://app:pw@db1,db2/payments?replicaSet=rs0&tls=true',
    'mongodb+srv://app:pw@cluster0.mongodb.invalid/payments',
    'mongodb://db.internal/payments?authMechanism=MONGODB-X509&tls=true',
    'mongodb://localhost,127.0.0.2/payments',
    'mongodb://%2Ftmp%2Fmongodb-27017.sock/payments',
  ])
    t.is(loadConfig(safe({ MONGODB_URI: uri })).mongodbUri, uri);
  const noTls = problemsOf(t, { MONGODB_URI: 'mongodb://app:s3cr3t-pw@db.internal/payments' });
  t.regex(noTls, /MONGODB_URI reaches another machine with no TLS/);
  t.false(noTls.includes('s3cr3t-pw'), 'never the value');
  t.regex(
    problemsOf(t, { MONGODB_URI: 'mongodb+srv://app:pw@cluster0.mongodb.invalid/payments?ssl=false' }),
    /with no TLS/,
  );
  t.regex(
    problemsOf(t, { MONGODB_URI: 'mongodb://app:pw@db.internal/payments?tls=true&tlsAllowInvalidCertificates=true' }),
    /with TLS that does not verify the server/,
  );
  const allowed = { MONGODB_URI: 'mongodb://db.internal/payments', MONGODB_ALLOW_INSECURE: 'true' };
  t.true(loadConfig(safe(allowed)).mongodbAllowInsecure);
});

test('the acquirer, its chargeback API and the client key: https, not here, not a sandbox, strong', (t) => {
  t.regex(
    problemsOf(t, {
      ...chargebackIntegration(pki),
      ACQUIRER_CHARGEBACK_AUTH_URL: 'http://auth.acquirer.invalid/token',
    }),
    /ACQUIRER_CHARGEBACK_AUTH_URL must be an https:\/\/ URL in production/,
  );
  t.regex(
    problemsOf(t, {
      ...chargebackIntegration(pki),
      ACQUIRER_CHARGEBACK_BASE_URL: 'https://[::1]:4100/cb/chargeback/v1',
    }),
    /ACQUIRER_CHARGEBACK_BASE_URL points at this machine/,
  );
  t.regex(
    problemsOf(t, {
      ...chargebackIntegration(pki),
      ACQUIRER_CHARGEBACK_BASE_URL: 'https://api.acquirer.invalid/sandbox-cb/v1',
    }),
    /ACQUIRER_CHARGEBACK_BASE_URL is a sandbox's address/,
  );
  t.regex(problemsOf(t, { ACQUIRER_BASE_URL: 'https://127.1' }), /ACQUIRER_BASE_URL points at this machine/);
  const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'weak-curve-')), 'client.key');
  fs.writeFileSync(
    keyFile,
    crypto.generateKeyPairSync('ec', { namedCurve: 'secp224r1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
  );
  t.regex(
    problemsOf(t, { ...chargebackIntegration(pki), ACQUIRER_CHARGEBACK_CLIENT_KEY: keyFile }),
    /ACQUIRER_CHARGEBACK_CLIENT_KEY is an EC key on secp224r1: production takes P-256, P-384 or P-521/,
  );
  fs.rmSync(path.dirname(keyFile), { recursive: true, force: true });
});

test('each rate limit may go to 10 times its default, per window and per minute, and no further', (t) => {
  t.notThrows(() =>
    loadConfig(safe({ TOKEN_RATE_LIMIT: '100', PASSWORD_ACCOUNT_RATE_LIMIT: '100', CHECKOUT_PAY_RATE_LIMIT: '300' })),
  );
  t.regex(problemsOf(t, { CHECKOUT_PAY_RATE_LIMIT: '301' }), /CHECKOUT_PAY_RATE_LIMIT is 301, far above its range/);
  t.regex(
    problemsOf(t, { CHECKOUT_PAY_RATE_WINDOW_SECONDS: '59' }),
    /CHECKOUT_PAY_RATE_WINDOW_SECONDS is 59 s, so CHECKOUT_PAY_RATE_LIMIT=30 lets 31 a minute through/,
  );
});

test('development and tests keep taking what production refuses', (t) => {
  const refusedInProduction = {
    ...cardKeys(1024),
    TRUST_PROXY: 'true',
    TOKEN_RATE_LIMIT: '100000',
    MONGODB_URI: 'mongodb://db.internal/payments',
    ACQUIRER_BASE_URL: 'http://127.0.0.1:4100',
    SANDBOX_PORT: '4100',
  };
  for (const NODE_ENV of ['development', 'test'])
    t.is(loadConfig({ NODE_ENV, ...refusedInProduction }).trustProxy, 'true', NODE_ENV);
});
