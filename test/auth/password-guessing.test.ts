/**
 * Issue 27 item 5: the same password-guessing limits whichever way the password is tried (POST
 * /api/token/, basic auth with a staff e-mail, the operator's password). Issue 39 item 3: failures
 * are counted per account and address, per address a day, and per account without refusing the
 * right password from an address that has not failed at the account. Real web processes on Redis,
 * each scenario under its own key prefix; addresses come from X-Forwarded-For with a trusted proxy.
 */
import '../helpers/env';
import test from 'ava';
import { TEST_QUEUE_PREFIX } from '../helpers/env';
import { startProcess, stopAll } from '../helpers/processes';
import { newMerchant, newStaff } from '../helpers/identity';
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

test.serial('once an account budget is spent, only addresses that failed at it are refused', async (t) => {
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
  // The budget (4) is spent: an address that failed at this account is refused, whichever way.
  t.is(await viaTokenRoute(server, staff.email, staff.password, '203.0.113.1'), 429);
  t.is(await viaBasicAuth(server, staff.email, staff.password, '203.0.113.2'), 429);
  t.is(await viaTokenRoute(server, staff.email, staff.password, '203.0.113.3'), 429, 'in any case');
  // The owner from an address that has not failed here gets in, either way.
  t.is(await viaTokenRoute(server, staff.email, staff.password, '203.0.113.5'), 200, 'a fifth address');
  t.is(await viaBasicAuth(server, staff.email, staff.password, '203.0.113.6'), 200);
  t.is(await viaTokenRoute(server, other.email, 'guess-1', '203.0.113.1'), 401, 'another account has its own budget');
  t.is(await viaTokenRoute(server, other.email, other.password, '203.0.113.1'), 200);
});

// Issue 39 item 3: ten guesses a minute from one address used to hold an account off for good.
test.serial("a stranger's ten failures from one address do not keep the owner out from another", async (t) => {
  const server = await web('stranger-lockout', {
    TRUST_PROXY: 'loopback',
    TOKEN_RATE_LIMIT: '100',
    PASSWORD_ACCOUNT_RATE_LIMIT: '10',
  });
  const owner = await newMerchant();
  const stranger = '198.51.100.66';
  const guesses: number[] = [];
  for (let i = 0; i < 10; i++) guesses.push(await viaTokenRoute(server, owner.email, `guess-${i}`, stranger));
  t.deepEqual(guesses, Array<number>(10).fill(401));
  t.is(await viaTokenRoute(server, owner.email, owner.password, '203.0.113.10'), 200, 'the owner from elsewhere');
  t.is(await viaTokenRoute(server, owner.email, owner.password, '203.0.113.10'), 200, 'and again');
  const refused = await send(
    server,
    'POST',
    '/api/token/',
    { 'x-forwarded-for': stranger },
    { username: owner.email, password: owner.password },
  );
  t.is(refused.status, 429, "the stranger's address is refused at this account, the right password too");
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter > 600 && retryAfter <= 3600, `refused for PASSWORD_CONSECUTIVE_BLOCK_SECONDS, not ${retryAfter}`);
});

test.serial('a success resets the consecutive failures of its account and address', async (t) => {
  const server = await web('pair-reset', {
    TRUST_PROXY: 'loopback',
    TOKEN_RATE_LIMIT: '100',
    PASSWORD_ACCOUNT_RATE_LIMIT: '100',
    PASSWORD_CONSECUTIVE_FAILURE_LIMIT: '3',
  });
  const owner = await newMerchant();
  const address = '203.0.113.20';
  const attempt = (password: string) => viaTokenRoute(server, owner.email, password, address);
  const answers: number[] = [];
  for (const password of ['typo-1', 'typo-2', owner.password, 'typo-3', 'typo-4', 'typo-5', 'typo-6'])
    answers.push(await attempt(password));
  // Without the reset the fourth failure in all would be refused; with it, three more are checked.
  t.deepEqual(answers, [401, 401, 200, 401, 401, 401, 429]);
  t.is(await attempt(owner.password), 429, 'refused in a row, the right password too');
  t.is(await viaTokenRoute(server, owner.email, owner.password, '203.0.113.21'), 200, 'another address is not');
});

// The bound chosen: with the account budget B (PASSWORD_ACCOUNT_RATE_LIMIT) spent, each address gets
// one failed check at the account (its first), so N addresses make at most B + N failed checks in a
// window; an address that has failed there is refused until the window ends.
test.serial('a guess spread over 50 addresses at one account stays bounded by budget plus addresses', async (t) => {
  const budget = 4;
  const server = await web('fifty-addresses', {
    TRUST_PROXY: 'loopback',
    PASSWORD_ACCOUNT_RATE_LIMIT: String(budget),
    PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS: '600',
  });
  const owner = await newMerchant();
  const addresses = Array.from({ length: 50 }, (_, i) => `198.51.100.${i + 1}`);
  const answers: number[][] = [];
  for (const address of addresses) {
    const three: number[] = [];
    for (let i = 0; i < 3; i++) three.push(await viaTokenRoute(server, owner.email, `guess-${address}-${i}`, address));
    answers.push(three);
  }
  const checked = answers.flat().filter((status) => status === 401).length;
  t.true(checked <= budget + addresses.length, `${checked} failed checks`);
  t.deepEqual(answers[0], [401, 401, 401], 'the budget first');
  t.deepEqual(answers[1], [401, 429, 429], 'its last check, then refused');
  for (const later of answers.slice(2)) t.deepEqual(later, [401, 429, 429], 'one check from each new address');
  t.is(checked, budget + addresses.length - 2);
  // Guesses at once from a new address (as many as its request budget takes): one finds it clean.
  const burst = await Promise.all(
    Array.from({ length: 4 }, (_, i) => viaTokenRoute(server, owner.email, `burst-${i}`, '198.51.100.200')),
  );
  t.deepEqual([...burst].sort(), [401, 429, 429, 429]);
  t.is(await viaTokenRoute(server, owner.email, owner.password, addresses[7]), 429, 'an address that failed here');
  t.is(await viaTokenRoute(server, owner.email, owner.password, '203.0.113.30'), 200, 'the owner from a clean one');
});

test.serial('one address is refused after its failures of a day, at every account', async (t) => {
  const server = await web('address-day', {
    TRUST_PROXY: 'loopback',
    TOKEN_RATE_LIMIT: '100',
    PASSWORD_ACCOUNT_RATE_LIMIT: '100',
    PASSWORD_ADDRESS_FAILURE_LIMIT: '5',
    PASSWORD_ADDRESS_FAILURE_WINDOW_SECONDS: '86400',
  });
  const owner = await newMerchant();
  const address = '203.0.113.40';
  // Successes are no failures: they leave the day's count as it was.
  for (let i = 0; i < 6; i++) t.is(await viaTokenRoute(server, owner.email, owner.password, address), 200);
  const answers: number[] = [];
  for (let i = 0; i < 5; i++) answers.push(await viaTokenRoute(server, `someone-${i}@example.com`, 'guess', address));
  t.deepEqual(answers, [401, 401, 401, 401, 401], 'five accounts, one failure each');
  const refused = await send(
    server,
    'POST',
    '/api/token/',
    { 'x-forwarded-for': address },
    { username: owner.email, password: owner.password },
  );
  t.is(refused.status, 429, 'a sixth account, the right password: refused');
  t.true(Number(refused.headers.get('retry-after')) > 3600, 'until the day ends');
  t.is(await viaTokenRoute(server, 'someone-9@example.com', 'guess', '203.0.113.41'), 401, 'another address is not');
});
