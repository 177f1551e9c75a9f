import '../helpers/env';
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, ConfigError } from '../../config';
import { loadLocalSecrets } from '../../config/local-secrets';
import { CONFIGURATION_DOC, withConfigurationTable } from '../../config/docs';
import { ROOT } from '../helpers/processes';

test('local defaults load with no .env', (t) => {
  const config = loadConfig({ NODE_ENV: 'development' });
  t.is(config.port, 3000);
  t.is(config.redisUrl, 'redis://127.0.0.1:6379');
  t.is(config.jwt.accessTtlSeconds, 900);
  t.is(config.jwt.refreshTtlSeconds, 604800);
  t.true(config.systemToken.length >= 32);
  t.regex(config.cardKeys.publicKeyPem, /BEGIN PUBLIC KEY/);
  t.deepEqual(config.worker.queues, [], 'every queue');
});

test('INSTANCE moves the default database, queue prefix, ports and the URLs built on them; a set value wins', (t) => {
  const first = loadConfig({ NODE_ENV: 'development' });
  const second = loadConfig({ NODE_ENV: 'development', INSTANCE: 'two' });
  t.is(first.mongodbUri, 'mongodb://127.0.0.1:27017/payments');
  t.is(second.mongodbUri, 'mongodb://127.0.0.1:27017/payments-two');
  t.is([first.queuePrefix, second.queuePrefix].join(' '), 'pay pay-two');
  const moved = second.port - first.port;
  t.true(moved >= 10 && moved <= 990 && moved % 10 === 0, String(moved));
  t.is(second.sandbox.port - first.sandbox.port, moved);
  t.is(second.publicBaseUrl, `http://127.0.0.1:${second.port}`);
  t.is(second.sandbox.notifyUrl, second.publicBaseUrl);
  t.is(second.acquirer.baseUrl, `http://127.0.0.1:${second.sandbox.port}`);
  t.not(loadConfig({ NODE_ENV: 'development', INSTANCE: 'three' }).port, second.port);

  const set = { MONGODB_URI: 'mongodb://127.0.0.1:27017/mine', QUEUE_PREFIX: 'mine', PORT: '0', SANDBOX_PORT: '4200' };
  const given = loadConfig({ NODE_ENV: 'development', INSTANCE: 'two', ...set });
  t.deepEqual(
    [given.mongodbUri, given.queuePrefix, given.port, given.sandbox.port],
    [set.MONGODB_URI, 'mine', 0, 4200],
  );
  // Any free port is known only once listening: the URL keeps the instance's default port.
  t.is(given.publicBaseUrl, second.publicBaseUrl);
  t.throws(() => loadConfig({ NODE_ENV: 'development', INSTANCE: 'Two!' }), { message: /INSTANCE is invalid/ });
});

test('WORKER_QUEUES is read as a list of queue names', (t) => {
  const config = loadConfig({ NODE_ENV: 'development', WORKER_QUEUES: ' link-webhook, charge-subscription ,' });
  t.deepEqual(config.worker.queues, ['link-webhook', 'charge-subscription']);
});

test('a bad variable is named with what is expected', (t) => {
  const error = t.throws(() => loadConfig({ NODE_ENV: 'development', PORT: 'eighty', REDIS_URL: 'http://nope' }), {
    instanceOf: ConfigError,
  });
  t.regex(error!.message, /PORT is invalid/);
  t.regex(error!.message, /REDIS_URL is invalid/);
});

test('production refuses to start without real secrets', (t) => {
  const error = t.throws(() => loadConfig({ NODE_ENV: 'production', ACQUIRER_CHARGEBACK_CLIENT_ID: '' }), {
    instanceOf: ConfigError,
  });
  t.regex(error!.message, /JWT_SECRET is required/);
  t.regex(error!.message, /SYSTEM_TOKEN is required/);
  t.regex(error!.message, /CARD_RSA_PRIVATE_KEY is required/);
  t.regex(error!.message, /CARD_FINGERPRINT_KEY is required/);
  t.notRegex(error!.message, /ACQUIRER_CHARGEBACK_CLIENT_SECRET/, 'optional: the chargeback integration may be off');
});

test('a local secrets file made before a secret was declared gets it, the same in every process', (t) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'local-secrets-')), 'local-secrets.json');
  writeFileSync(file, JSON.stringify({ JWT_SECRET: 'an older file, written before CARD_FINGERPRINT_KEY' }));
  const derived = loadLocalSecrets(file).CARD_FINGERPRINT_KEY;
  t.true(derived.length >= 32);
  t.not(derived, loadLocalSecrets(file).JWT_SECRET);
  // Secrets a local run must not invent (a Redis password, a TLS key) stay absent.
  t.false('REDIS_PASSWORD' in loadLocalSecrets(file));
  t.false('REDIS_TLS_KEY' in loadLocalSecrets(file));
  const readElsewhere = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `console.log(require('./config/local-secrets').loadLocalSecrets(${JSON.stringify(file)}).CARD_FINGERPRINT_KEY)`,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
  );
  t.is(readElsewhere.stdout.trim(), derived, 'another process derives the same key');
});

test('a process with a bad config exits non-zero naming the variable', (t) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/web/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, WORKER_CONCURRENCY: '0', PORT: '0' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.not(result.status, 0);
  t.regex(result.stderr, /WORKER_CONCURRENCY is invalid/);
});

test('the configuration table of the docs is the one the declarations give', (t) => {
  const markdown = readFileSync(CONFIGURATION_DOC, 'utf8');
  t.is(
    markdown,
    withConfigurationTable(markdown),
    'docs/configuration.md differs from config/variables.ts: run node --import tsx config/docs.ts',
  );
});
