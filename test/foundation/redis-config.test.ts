/**
 * Redis credentials and TLS from the configuration: production refuses a Redis without a password or
 * without TLS unless REDIS_ALLOW_INSECURE says so, settings that would connect otherwise than they
 * say are refused everywhere, and a cluster's nodes get REDIS_URL's credentials and TLS.
 */
import '../helpers/env';
import test from 'ava';
import fs from 'node:fs';
import { ConfigError, loadConfig } from '../../config';
import { productionEnvironment, STRONG_REDIS_PASSWORD } from '../helpers/production';
import { redisSecurityOf } from '../../config/redis-variables';
import { startProcess } from '../helpers/processes';
import { makeTestPki, type TestPki } from '../helpers/redis-security';

let pki: TestPki;
test.before(async () => {
  pki = await makeTestPki();
});
test.after.always(() => {
  if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
});

/** Everything production requires, so that only Redis is left to refuse. */
const production = productionEnvironment;

function problemsOf(t: import('ava').ExecutionContext, env: Record<string, string>): string {
  return t.throws(() => loadConfig(env), { instanceOf: ConfigError })!.message;
}

test('production refuses a Redis without password or TLS, naming what to set', (t) => {
  const both = problemsOf(t, production({ REDIS_URL: 'redis://127.0.0.1:6379' }));
  t.regex(both, /Redis would be used with no password \(set REDIS_PASSWORD.*\) and no TLS \(set REDIS_URL to rediss/);
  t.regex(both, /REDIS_ALLOW_INSECURE=true/);
  const noTls = problemsOf(t, production({ REDIS_URL: 'redis://:pw@127.0.0.1:6379' }));
  t.notRegex(noTls, /no password/);
  t.regex(noTls, /no TLS/);
  const noPassword = problemsOf(t, production({ REDIS_URL: 'rediss://redis.internal:6380' }));
  t.regex(noPassword, /no password/);
  t.notRegex(noPassword, /no TLS/);
  const clusterNoPassword = production({ REDIS_URL: 'rediss://x:1', REDIS_CLUSTER_NODES: '10.0.0.1:6379' });
  t.regex(problemsOf(t, { ...clusterNoPassword, QUEUE_PREFIX: '{pay}' }), /no password/, 'the same for a cluster');

  const secured = loadConfig(
    production({ REDIS_URL: 'rediss://redis.internal:6380', REDIS_PASSWORD: STRONG_REDIS_PASSWORD }),
  );
  t.is(secured.redisSecurity.password, STRONG_REDIS_PASSWORD);
  const allowed = loadConfig(production({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_ALLOW_INSECURE: 'true' }));
  t.true(allowed.redisSecurity.allowInsecure);
  t.notThrows(() => loadConfig({ NODE_ENV: 'development' }), 'a local run needs neither');
});

test('a production web process with a plain Redis exits at once (78) and says why', async (t) => {
  const error = await t.throwsAsync(startProcess('web', production({ REDIS_URL: 'redis://127.0.0.1:6379' })));
  t.regex(error!.message, /exited \(78\) before ready/);
  t.regex(error!.message, /no password \(set REDIS_PASSWORD/);
});

test('settings that would connect otherwise than they say are refused in every environment', (t) => {
  const dev = (env: Record<string, string>) => problemsOf(t, { NODE_ENV: 'development', ...env });
  t.regex(
    dev({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_TLS_CA: pki.ca }),
    /REDIS_TLS_CA set, but REDIS_URL is not rediss:\/\//,
  );
  t.regex(dev({ REDIS_URL: 'redis://u:p@127.0.0.1:6379', REDIS_PASSWORD: 'other' }), /give them once/);
  t.regex(dev({ REDIS_USERNAME: 'app' }), /REDIS_USERNAME needs REDIS_PASSWORD/);
  t.regex(dev({ REDIS_URL: 'rediss://h:1', REDIS_TLS_CERT: pki.clientCert }), /REDIS_TLS_CERT and REDIS_TLS_KEY go/);
  t.regex(
    dev({ REDIS_URL: 'rediss://h:1', REDIS_TLS_CERT: pki.clientCert, REDIS_TLS_KEY: pki.strangerKey }),
    /REDIS_TLS_KEY is not the private key of REDIS_TLS_CERT/,
  );
  t.regex(dev({ REDIS_TLS_KEY: 'a key' }), /REDIS_TLS_KEY is invalid/);
});

test('every connection gets the credentials and TLS, from REDIS_URL or the variables', (t) => {
  const none = { username: '', password: '', tls: { ca: '', cert: '', key: '' } };
  t.deepEqual(redisSecurityOf({ ...none, url: 'redis://127.0.0.1:6379' }), {}, 'a local Redis: nothing');
  t.deepEqual(redisSecurityOf({ ...none, url: 'rediss://app:p%40ss@cluster:6379' }), {
    username: 'app',
    password: 'p@ss',
    tls: {},
  });
  const tls = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
  t.deepEqual(redisSecurityOf({ url: 'rediss://h:1', username: 'app', password: 'pw', tls }), {
    username: 'app',
    password: 'pw',
    tls,
  });
  const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: 'rediss://:pw@h:1', REDIS_TLS_CA: pki.ca });
  t.deepEqual(redisSecurityOf({ url: config.redisUrl, ...config.redisSecurity }), {
    password: 'pw',
    tls: { ca: pki.ca },
  });
});
