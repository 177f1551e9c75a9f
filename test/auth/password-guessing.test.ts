/**
 * Issue 27 item 5: one budget of password checks per client address and one per account, whichever
 * way the password is tried (POST /api/token/, basic auth with a staff e-mail, the operator's
 * password). Real web processes on Redis, each scenario under its own key prefix.
 */
import '../helpers/env';
import test from 'ava';
import { TEST_QUEUE_PREFIX } from '../helpers/env';
import { startProcess, stopAll } from '../helpers/processes';
import { newStaff } from '../helpers/identity';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { getConfig } from '../../config';
import { send } from '../helpers/http';

const web = (name: string, env: Record<string, string> = {}) =>
  startProcess('web', {
    QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}${name}`,
    TOKEN_RATE_LIMIT: '4',
    TOKEN_RATE_WINDOW_SECONDS: '600',
    PASSWORD_ACCOUNT_RATE_LIMIT: '4',
    PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS: '600',
    ...env,
  });

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

type Server = { url: string };
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
/** One password check through basic auth (/metrics), from `address` when a proxy is trusted. */
const viaBasicAuth = async (server: Server, user: string, password: string, address = '') =>
  (await send(server, 'GET', '/metrics', { ...basic(user, password), 'x-forwarded-for': address || undefined })).status;
/** One password check through the token route. */
const viaTokenRoute = async (server: Server, username: string, password: string, address = '') =>
  (await send(server, 'POST', '/api/token/', { 'x-forwarded-for': address || undefined }, { username, password }))
    .status;

test.serial('guessing through basic auth and the token route together is stopped after one budget', async (t) => {
  const server = await web('guess-one-address');
  const staff = await newStaff();
  const operator = getConfig().dashboard.user;
  t.deepEqual(
    [
      await viaBasicAuth(server, staff.email, 'guess-1'),
      await viaTokenRoute(server, staff.email, 'guess-2'),
      await viaBasicAuth(server, operator, 'guess-3-for-the-operator'),
      await viaTokenRoute(server, staff.email, 'guess-4'),
    ],
    [401, 401, 401, 401],
  );
  // The fifth check from this address, whichever way: refused before the password is looked at.
  t.deepEqual(
    [
      await viaBasicAuth(server, staff.email, staff.password),
      await viaTokenRoute(server, staff.email, staff.password),
      await viaBasicAuth(server, operator, getConfig().dashboard.password),
    ],
    [429, 429, 429],
  );
  const refused = await send(server, 'POST', '/api/token/', {}, { username: staff.email, password: staff.password });
  t.true(Number(refused.headers.get('retry-after')) >= 1);
});

test.serial('one account is stopped after its budget whatever address the guesses come from', async (t) => {
  const server = await web('guess-one-account', { TRUST_PROXY: 'loopback' });
  const staff = await newStaff();
  const other = await newStaff();
  t.deepEqual(
    [
      await viaBasicAuth(server, staff.email, 'guess-1', '203.0.113.1'),
      await viaTokenRoute(server, staff.email, 'guess-2', '203.0.113.2'),
      // The account is the e-mail, in any case.
      await viaBasicAuth(server, staff.email.toUpperCase(), 'guess-3', '203.0.113.3'),
      await viaTokenRoute(server, staff.email, 'guess-4', '203.0.113.4'),
    ],
    [401, 401, 401, 401],
  );
  t.is(await viaTokenRoute(server, staff.email, staff.password, '203.0.113.5'), 429, 'a fifth address');
  t.is(await viaBasicAuth(server, staff.email, staff.password, '203.0.113.6'), 429);
  t.is(await viaTokenRoute(server, other.email, other.password, '203.0.113.7'), 200, 'another account is not');
});
