import '../helpers/env';
import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { ApiError, PaymentsClient, jwtExpiry } from '../../clients/typescript/src';
import { getConfig } from '../../config';
import { UserModel } from '../../src/auth/model';
import { freePort, startProcess, type RunningProcess } from '../helpers/processes';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

// The generated client's answer to a 401 (clients/typescript/src/client.ts): with a JWT it renews once
// (refresh token, or a new login when the refresh token is refused) and sends the request again; a
// second 401, or a 401 without a renewable credential, reaches the caller. Against the real web
// process: every refusal here is the service's own, and every count is read from its /metrics.
//
// The service refuses an access token the client still holds as fresh when the clocks disagree: the
// client renews 30 s before the expiry it reads from the token, by its own clock. With the client's
// clock a minute behind the service's, short-lived tokens really expire at the service while the
// client still sends them, so their 401 is the only thing that makes the client renew. A rotated
// signing key is the other refusal: the tokens are unexpired by every clock.

/** Seconds: the access token dies first; the refresh token a few seconds later, so a test can wait for either. */
const ACCESS_TTL_SECONDS = 4;
const REFRESH_TTL_SECONDS = 8;
/** More than the client's 30 s renewal margin plus the refresh token's lifetime: it never renews on its own. */
const CLIENT_CLOCK_BEHIND_MS = 60_000;

const ME = '/api/v1/me/';
const TOKEN = '/api/token/';
const REFRESH = '/api/token/refresh/';

let web: RunningProcess;
let webPort: number;
const SHORT_LIVED_TOKENS = {
  JWT_ACCESS_TTL_SECONDS: String(ACCESS_TTL_SECONDS),
  JWT_REFRESH_TTL_SECONDS: String(REFRESH_TTL_SECONDS),
};
const webEnv = (jwtSecret: string, tokenLifetimes: Record<string, string> = {}) => ({
  PORT: String(webPort),
  JWT_SECRET: jwtSecret,
  ...tokenLifetimes,
  // Every login and refresh of this file comes from 127.0.0.1, for a few accounts; the limits are not
  // what is tested here.
  TOKEN_RATE_LIMIT: '100000',
  PASSWORD_ACCOUNT_RATE_LIMIT: '100000',
  PASSWORD_CONSECUTIVE_FAILURE_LIMIT: '100000',
  PASSWORD_ADDRESS_FAILURE_LIMIT: '100000',
});
const newSecret = () => crypto.randomBytes(32).toString('hex');

useServices({
  async ready() {
    // A fixed port: the key-rotation test restarts the web process where its client already points.
    // Until then, tokens of the default lifetimes: unexpired by every clock during the restart.
    webPort = await freePort();
    web = await startProcess('web', webEnv(newSecret()));
  },
});

const realNow = Date.now;

/** Sets the client's clock (this test process's Date.now) behind the service's until the test ends. */
function putClientClockBehind(t: ExecutionContext, ms: number): void {
  Date.now = () => realNow.call(Date) - ms;
  t.teardown(() => {
    Date.now = realNow;
  });
}

/** Waits, by the real clock, until the service refuses a token whose exp claim is `expiresAtMs`. */
async function waitPast(expiresAtMs: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAtMs + 200 - realNow.call(Date))));
}

/** The web process's http_requests_total, "METHOD route status" → count. */
async function servedRequests(): Promise<Map<string, number>> {
  const { user, password } = getConfig().dashboard;
  const res = await send(web, 'GET', '/metrics', {
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
  const counts = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const match = /^http_requests_total\{method="(\w+)",route="([^"]*)",status="(\d+)"\} (\d+)$/.exec(line);
    if (match) counts.set(`${match[1]} ${match[2]} ${match[3]}`, Number(match[4]));
  }
  return counts;
}

/** What the service answered between two scrapes, for the token and /me routes only (metrics scrapes aside). */
function served(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [series, count] of after) {
    const [, route] = series.split(' ');
    if (![ME, TOKEN, REFRESH].includes(route)) continue;
    const added = count - (before.get(series) ?? 0);
    if (added > 0) delta[series] = added;
  }
  return delta;
}

/** Two scrapes of what the service answered, before and after some work. */
type Scrapes = { before: Map<string, number>; after: Map<string, number> };

/** Runs `work` between two scrapes of what the service answered (for assertExchange). */
async function servedDuring<T>(work: () => Promise<T>): Promise<{ result: T; scrapes: Scrapes }> {
  const before = await servedRequests();
  const result = await work();
  return { result, scrapes: { before, after: await servedRequests() } };
}

/**
 * What the client received after its login (one login and one /me: the first two answers), in
 * order, and what the service answered between the two scrapes: exactly those, each once per time
 * it is listed.
 */
function assertExchange(t: ExecutionContext, observed: ObservedClient, scrapes: Scrapes, answers: string[]): void {
  t.deepEqual(observed.answers.slice(2), answers);
  const expected: Record<string, number> = {};
  for (const answer of answers) expected[answer] = (expected[answer] ?? 0) + 1;
  t.deepEqual(served(scrapes.before, scrapes.after), expected);
}

interface ObservedClient {
  client: PaymentsClient;
  /** "METHOD path status" of every answer the client received, in order. */
  answers: string[];
  /** The bearer credential of every request, in order ('' without one). */
  bearers: string[];
  /** The last token pair a login answered. */
  pair?: { access: string; refresh: string };
}

/**
 * A client of the web process with an observer on its fetch: the request goes to the service through
 * Node's fetch unchanged; the observer notes it and may act (afterAnswer) before the client reads it.
 */
function observedClient(
  credentials: { username?: string; password?: string; token?: string },
  afterAnswer?: (answer: string) => Promise<void>,
): ObservedClient {
  const observed: ObservedClient = { answers: [], bearers: [], client: undefined as unknown as PaymentsClient };
  observed.client = new PaymentsClient({
    baseUrl: web.url,
    ...credentials,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      observed.bearers.push(new Headers(init?.headers).get('authorization') ?? '');
      const response = await fetch(input, init);
      const answer = `${init?.method ?? 'GET'} ${url.pathname} ${response.status}`;
      observed.answers.push(answer);
      if (url.pathname === TOKEN && response.ok)
        observed.pair = (await response.clone().json()) as ObservedClient['pair'];
      await afterAnswer?.(answer);
      return response;
    },
  });
  return observed;
}

/** A merchant's client, logged in (one /me answered) with its clock behind the service's. */
async function loggedInWithClockBehind(
  t: ExecutionContext,
  merchant: TestMerchant,
  afterAnswer?: (answer: string) => Promise<void>,
): Promise<ObservedClient> {
  putClientClockBehind(t, CLIENT_CLOCK_BEHIND_MS);
  const observed = observedClient({ username: merchant.email, password: merchant.password }, afterAnswer);
  t.is((await observed.client.auth.getMe()).id, merchant.merchantId);
  t.deepEqual(observed.answers, [`POST ${TOKEN} 200`, `GET ${ME} 200`]);
  return observed;
}

// First: it restarts the web process with another signing key, and the short token lifetimes of the tests after it.
test.serial(
  'after the signing key changed, an unexpired token pair is refused and the client logs in again',
  async (t) => {
    const merchant = await newMerchant();
    const observed = observedClient({ username: merchant.email, password: merchant.password });
    t.is((await observed.client.auth.getMe()).id, merchant.merchantId);
    const firstPair = observed.pair!;

    await web.stop();
    web = await startProcess('web', webEnv(newSecret(), SHORT_LIVED_TOKENS));
    t.true(jwtExpiry(firstPair.access)! > Date.now() + 1000, 'the access token is unexpired by every clock');

    const { result: me, scrapes } = await servedDuring(() => observed.client.auth.getMe());

    t.is(me.id, merchant.merchantId);
    assertExchange(t, observed, scrapes, [
      `GET ${ME} 401`,
      `POST ${REFRESH} 401`,
      `POST ${TOKEN} 200`,
      `GET ${ME} 200`,
    ]);
  },
);

test.serial(
  'an access token the service refuses is renewed with the refresh token, and the request sent again',
  async (t) => {
    const merchant = await newMerchant();
    const observed = await loggedInWithClockBehind(t, merchant);
    const refused = observed.pair!.access;
    await waitPast(jwtExpiry(refused)!);
    t.true(jwtExpiry(observed.pair!.refresh)! > realNow.call(Date) + 1000, 'the refresh token is still valid');

    const { result: me, scrapes } = await servedDuring(() => observed.client.auth.getMe());

    t.is(me.id, merchant.merchantId);
    // The service saw the request twice: refused once, answered once; no new login.
    assertExchange(t, observed, scrapes, [`GET ${ME} 401`, `POST ${REFRESH} 200`, `GET ${ME} 200`]);
    const [refusedBearer, , retriedBearer] = observed.bearers.slice(2);
    t.is(refusedBearer, `Bearer ${refused}`);
    t.not(retriedBearer, refusedBearer);
  },
);

test.serial('a 401 on the retry reaches the caller as an ApiError: the request is not sent a third time', async (t) => {
  const merchant = await newMerchant();
  // The user is deleted as the refresh answers: the renewed token is refused too.
  const observed = await loggedInWithClockBehind(t, merchant, async (answer) => {
    if (answer === `POST ${REFRESH} 200`) await UserModel.deleteOne({ _id: merchant.userId });
  });
  await waitPast(jwtExpiry(observed.pair!.access)!);

  const { result: error, scrapes } = await servedDuring(() =>
    t.throwsAsync(observed.client.auth.getMe(), { instanceOf: ApiError }),
  );

  t.is(error.status, 401);
  t.is(error.operationId, 'getMe');
  assertExchange(t, observed, scrapes, [`GET ${ME} 401`, `POST ${REFRESH} 200`, `GET ${ME} 401`]);
});

test.serial('when the refresh token has expired too, the client logs in again and the request succeeds', async (t) => {
  const merchant = await newMerchant();
  const observed = await loggedInWithClockBehind(t, merchant);
  const firstPair = observed.pair!;
  await waitPast(jwtExpiry(firstPair.refresh)!);

  const { result: me, scrapes } = await servedDuring(() => observed.client.auth.getMe());

  t.is(me.id, merchant.merchantId);
  assertExchange(t, observed, scrapes, [`GET ${ME} 401`, `POST ${REFRESH} 401`, `POST ${TOKEN} 200`, `GET ${ME} 200`]);
  t.not(observed.pair!.refresh, firstPair.refresh);
  t.is(observed.bearers.at(-1), `Bearer ${observed.pair!.access}`);
});

test.serial('without a renewable credential a 401 reaches the caller at once, sent once', async (t) => {
  const before = await servedRequests();
  // No credential at all: the service answers 401; there is nothing to renew.
  const anonymous = observedClient({});
  const unauthenticated = await t.throwsAsync(anonymous.client.auth.getMe(), { instanceOf: ApiError });
  t.is(unauthenticated.status, 401);
  t.is(unauthenticated.operationId, 'getMe');
  t.deepEqual(anonymous.answers, [`GET ${ME} 401`]);
  t.deepEqual(anonymous.bearers, ['']);
  // A merchant token the service does not know: sent as is, never renewed.
  const unknownToken = observedClient({ token: `mt_${crypto.randomBytes(24).toString('hex')}` });
  const refused = await t.throwsAsync(unknownToken.client.auth.getMe(), { instanceOf: ApiError });
  t.is(refused.status, 401);
  t.deepEqual(unknownToken.answers, [`GET ${ME} 401`]);
  const after = await servedRequests();
  t.deepEqual(served(before, after), { [`GET ${ME} 401`]: 2 });
});
