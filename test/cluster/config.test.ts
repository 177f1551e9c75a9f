/**
 * A cluster configuration whose QUEUE_PREFIX has no hash tag is refused at start, with a message saying what to set.
 */
import '../helpers/env';
import test from 'ava';
import { ConfigError, hashTagOf, loadConfig } from '../../config';
import { startProcess } from '../helpers/processes';

const NODES = '127.0.0.1:7000, 127.0.0.1:7001';

test('REDIS_CLUSTER_NODES is parsed into seed nodes, and empty means the single Redis', (t) => {
  t.deepEqual(loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: NODES, QUEUE_PREFIX: '{pay}' }).redisClusterNodes, [
    { host: '127.0.0.1', port: 7000 },
    { host: '127.0.0.1', port: 7001 },
  ]);
  t.deepEqual(loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: 'pay' }).redisClusterNodes, []);
  const bad = t.throws(
    () => loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: 'redis://127.0.0.1:7000', QUEUE_PREFIX: '{pay}' }),
    { instanceOf: ConfigError },
  );
  t.regex(bad!.message, /REDIS_CLUSTER_NODES is invalid/);
});

test('on a cluster the prefix needs a hash tag: pay and {} are refused, {pay} and app{pay} are not', (t) => {
  for (const prefix of ['pay', 'pay{}', '}pay{', 'pay{']) {
    const error = t.throws(
      () => loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: NODES, QUEUE_PREFIX: prefix }),
      { instanceOf: ConfigError },
      prefix,
    );
    t.regex(error!.message, /QUEUE_PREFIX is invalid with REDIS_CLUSTER_NODES: .* has no hash tag/);
    t.regex(error!.message, /e\.g\. QUEUE_PREFIX=\{pay\}/);
  }
  for (const prefix of ['{pay}', 'app{pay}', '{pay}:v2'])
    t.is(loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: NODES, QUEUE_PREFIX: prefix }).queuePrefix, prefix);
  t.is(hashTagOf('{pay}:link-webhook:wait'), 'pay');
  t.is(loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: 'pay' }).queuePrefix, 'pay', 'a single Redis needs no tag');
});

test('a worker started with such a configuration exits at once (78) and says why', async (t) => {
  const error = await t.throwsAsync(startProcess('worker', { REDIS_CLUSTER_NODES: NODES, QUEUE_PREFIX: 'pay' }));
  t.regex(error!.message, /exited \(78\) before ready/);
  t.regex(error!.message, /QUEUE_PREFIX is invalid with REDIS_CLUSTER_NODES: 'pay' has no hash tag/);
});
