import '../helpers/env';
import test from 'ava';
import { TEST_QUEUE_PREFIX } from '../helpers/env';
import { json } from '../helpers/app';
import { startProcess, stopAll } from '../helpers/processes';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { clientBucket } from '../../src/http/rate-limit';
import { send } from '../helpers/http';

// Each scenario counts under its own key prefix, so no scenario sees another's counts. They run
// one after another only so that few processes start at once on a busy machine.
const scenario = (name: string, env: Record<string, string>) => ({
  QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}${name}`,
  ...env,
});
const web = (env: Record<string, string>) => startProcess('web', env, undefined, 100_000);

let merchant: TestMerchant;
test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  merchant = await newMerchant();
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return send({ url }, 'POST', path, { 'content-type': 'application/json', ...headers }, body);
}
const badLogin = { username: 'nobody@example.com', password: 'wrong-password' };

test.serial('429 after the threshold, and success again after the window', async (t) => {
  const server = await web(scenario('window', { TOKEN_RATE_LIMIT: '3', TOKEN_RATE_WINDOW_SECONDS: '3' }));
  // A missing password fails without hashing, so the count is reached quickly. Should a busy
  // machine let the window slide meanwhile, more requests may pass: send until refused.
  for (let i = 0; i < 3; i++)
    t.is((await post(server.url, '/api/token/', { username: 'nobody@example.com' })).status, 401, `request ${i + 1}`);
  let limited: Response | undefined;
  for (let i = 0; i < 10 && !limited; i++) {
    const res = await post(server.url, '/api/token/', { username: merchant.email, password: merchant.password });
    if (res.status === 429) limited = res;
    else t.is(res.status, 200);
  }
  t.truthy(limited, 'refused once over the limit');
  t.is(typeof (await json(limited!)).detail, 'string');
  const retryAfter = Number(limited!.headers.get('retry-after'));
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3, `Retry-After ${retryAfter}`);
  // refresh keeps its own count
  t.is((await post(server.url, '/api/token/refresh/', { refresh: 'x' })).status, 401);
  await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
  const again = await post(server.url, '/api/token/', { username: merchant.email, password: merchant.password });
  t.is(again.status, 200);
  t.deepEqual(Object.keys(await json(again)).sort(), ['access', 'refresh']);
});

test.serial('refresh is limited too', async (t) => {
  const server = await web(scenario('refresh', { TOKEN_RATE_LIMIT: '2', TOKEN_RATE_WINDOW_SECONDS: '60' }));
  t.is((await post(server.url, '/api/token/refresh/', { refresh: 'x' })).status, 401);
  t.is((await post(server.url, '/api/token/refresh/', { refresh: 'x' })).status, 401);
  const limited = await post(server.url, '/api/token/refresh/', { refresh: 'x' });
  t.is(limited.status, 429);
  t.true(Number(limited.headers.get('retry-after')) >= 1);
});

test.serial('two web processes share one limit', async (t) => {
  const env = scenario('shared', { TOKEN_RATE_LIMIT: '4', TOKEN_RATE_WINDOW_SECONDS: '60' });
  const [a, b] = await Promise.all([web(env), web(env)]);
  t.not(a.url, b.url);
  for (const server of [a, b, a, b]) t.is((await post(server.url, '/api/token/', badLogin)).status, 401);
  t.is((await post(a.url, '/api/token/', badLogin)).status, 429);
  t.is((await post(b.url, '/api/token/', badLogin)).status, 429);
});

test.serial('x-forwarded-for is ignored unless a proxy is trusted', async (t) => {
  const plain = await web(scenario('xff', { TOKEN_RATE_LIMIT: '2', TOKEN_RATE_WINDOW_SECONDS: '60' }));
  for (const ip of ['203.0.113.1', '203.0.113.2'])
    t.is((await post(plain.url, '/api/token/', badLogin, { 'x-forwarded-for': ip })).status, 401);
  t.is(
    (await post(plain.url, '/api/token/', badLogin, { 'x-forwarded-for': '203.0.113.3' })).status,
    429,
    'a new forwarded address does not reset the count',
  );
});

for (const trustProxy of ['loopback', '1']) {
  test.serial(`behind a trusted proxy (${trustProxy}) each forwarded client has its own count`, async (t) => {
    const proxied = await web(
      scenario(`proxied${trustProxy}`, {
        TOKEN_RATE_LIMIT: '2',
        TOKEN_RATE_WINDOW_SECONDS: '60',
        TRUST_PROXY: trustProxy,
      }),
    );
    for (let i = 0; i < 2; i++)
      t.is((await post(proxied.url, '/api/token/', badLogin, { 'x-forwarded-for': '203.0.113.1' })).status, 401);
    t.is((await post(proxied.url, '/api/token/', badLogin, { 'x-forwarded-for': '203.0.113.1' })).status, 429);
    t.is(
      (await post(proxied.url, '/api/token/', badLogin, { 'x-forwarded-for': '198.51.100.7, 203.0.113.2' })).status,
      401,
      'the address the proxy saw counts',
    );
  });
}

test.serial('without redis the token endpoints answer 503 rather than run unlimited', async (t) => {
  const server = await web(scenario('noredis', { REDIS_URL: 'redis://127.0.0.1:1' }));
  for (const [path, body] of [
    ['/api/token/', badLogin],
    ['/api/token/refresh/', { refresh: 'x' }],
  ] as const) {
    const res = await post(server.url, path, body);
    t.is(res.status, 503);
    t.is(typeof (await json(res)).detail, 'string');
    t.truthy(res.headers.get('retry-after'));
  }
});

test('clients are bucketed by address, ipv6 per /64', (t) => {
  t.is(clientBucket('127.0.0.1'), '127.0.0.1');
  t.is(clientBucket('::ffff:10.0.0.7'), '10.0.0.7');
  t.is(clientBucket('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  t.is(clientBucket('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  t.is(clientBucket('2001:db8::1'), '2001:db8:0:0::/64');
  t.is(clientBucket('::1'), '0:0:0:0::/64');
  t.is(clientBucket(undefined), 'unknown');
});
