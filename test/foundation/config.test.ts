import '../helpers/env';
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { loadConfig, ConfigError } from '../../config';
import { ROOT } from '../helpers/processes';

test('local defaults load with no .env', (t) => {
  const config = loadConfig({ NODE_ENV: 'development' });
  t.is(config.port, 3000);
  t.is(config.redisUrl, 'redis://127.0.0.1:6379');
  t.is(config.jwt.accessTtlSeconds, 900);
  t.is(config.jwt.refreshTtlSeconds, 604800);
  t.true(config.systemToken.length >= 32);
  t.regex(config.cardKeys.publicKeyPem, /BEGIN PUBLIC KEY/);
});

test('a bad variable is named with what is expected', (t) => {
  const error = t.throws(() => loadConfig({ NODE_ENV: 'development', PORT: 'eighty', REDIS_URL: 'http://nope' }), {
    instanceOf: ConfigError,
  });
  t.regex(error!.message, /PORT is invalid/);
  t.regex(error!.message, /REDIS_URL is invalid/);
});

test('production refuses to start without real secrets', (t) => {
  const error = t.throws(() => loadConfig({ NODE_ENV: 'production' }), { instanceOf: ConfigError });
  t.regex(error!.message, /JWT_SECRET is required/);
  t.regex(error!.message, /SYSTEM_TOKEN is required/);
  t.regex(error!.message, /CARD_RSA_PRIVATE_KEY is required/);
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

test('the configuration table of the docs lists every variable, and no other', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { CONFIG_TABLE } = await import('../../config');
  const table = readFileSync(`${ROOT}/docs/configuration.md`, 'utf8');
  const documented = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
  t.deepEqual(
    Object.keys(CONFIG_TABLE).filter((name) => !documented.includes(name)),
    [],
  );
  t.deepEqual(
    documented.filter((name) => !(name in CONFIG_TABLE)),
    [],
  );
});
