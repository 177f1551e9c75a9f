/**
 * Ending a user's sessions (issue 27, item 8): an operator's revoke, a password change or a
 * deactivation, each from the admin CLI (another process), refuses the user's access and refresh
 * tokens at once, in the web process that already verified (and remembers) the access token.
 */
import '../helpers/env';
import './high-token-limit';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff } from '../helpers/identity';
import { runCli } from '../helpers/processes';
import { callJson, send } from '../helpers/http';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const login = (email: string, password: string) =>
  callJson(app, 'POST', '/api/token/', {}, { username: email, password });
const refresh = (token: string) => callJson(app, 'POST', '/api/token/refresh/', {}, { refresh: token });
const me = (access: string) => callJson(app, 'GET', '/api/v1/me/', bearer(access));

/** A user's session as a partner holds it: its tokens, each used once (the web process remembers the access token). */
async function openSession(t: { is: (a: unknown, b: unknown, m?: string) => void }, email: string, password: string) {
  const pair = await login(email, password);
  t.is(pair.status, 200);
  t.is((await me(pair.body.access)).status, 200, 'the access token works (and is remembered as verified)');
  t.is((await refresh(pair.body.refresh)).status, 200, 'the refresh token works');
  return pair.body as { access: string; refresh: string };
}

async function cli(t: { is: (a: unknown, b: unknown, m?: string) => void }, args: string[], stdin?: string) {
  const result = await runCli(args, { stdin });
  t.is(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

async function assertEnded(
  t: { is: (a: unknown, b: unknown, m?: string) => void },
  old: { access: string; refresh: string },
) {
  t.is((await me(old.access)).status, 401, 'the old access token is refused at once');
  t.is((await refresh(old.refresh)).status, 401, 'the old refresh token is refused at once');
}

test('user:revoke-sessions ends the access and refresh tokens at once; a new login works', async (t) => {
  const merchant = await newMerchant();
  const old = await openSession(t, merchant.email, merchant.password);
  const answer = await cli(t, ['user:revoke-sessions', '--user', merchant.email.toUpperCase()]);
  t.like(answer, { user_id: merchant.userId, sessions_ended: true, deactivated: false });
  await assertEnded(t, old);
  const fresh = await openSession(t, merchant.email, merchant.password);
  t.is((await me(fresh.access)).body.username, merchant.login);
  await assertEnded(t, old); // and the old ones stay refused
});

test('user:set-password ends the sessions; only the new password logs in', async (t) => {
  const merchant = await newMerchant();
  const old = await openSession(t, merchant.email, merchant.password);
  await cli(t, ['user:set-password', '--user', String(merchant.userId), '--password-stdin'], 'a new passphrase\n');
  await assertEnded(t, old);
  t.is((await login(merchant.email, merchant.password)).status, 401, 'the old password');
  await openSession(t, merchant.email, 'a new passphrase');
  const short = await runCli(['user:set-password', '--user', String(merchant.userId), '--password', 'short']);
  t.is(short.code, 1);
  t.regex(short.stderr, /password/);
});

test('user:deactivate ends the sessions and refuses logins until user:activate', async (t) => {
  const merchant = await newMerchant();
  const old = await openSession(t, merchant.email, merchant.password);
  t.like(await cli(t, ['user:deactivate', '--user', merchant.email]), { deactivated: true });
  await assertEnded(t, old);
  t.is((await login(merchant.email, merchant.password)).status, 401);
  t.like(await cli(t, ['user:activate', '--user', merchant.email]), { deactivated: false });
  await assertEnded(t, old);
  await openSession(t, merchant.email, merchant.password);
});

test("a staff login the dashboard remembers ends with the staff user's sessions", async (t) => {
  const staff = await newStaff();
  const basic = { authorization: `Basic ${Buffer.from(`${staff.email}:${staff.password}`).toString('base64')}` };
  t.is((await send(app, 'GET', '/metrics', basic)).status, 200);
  t.is((await send(app, 'GET', '/metrics', bearer(staff.accessToken))).status, 200);
  await cli(t, ['user:set-password', '--user', staff.email, '--password', 'another passphrase']);
  t.is((await send(app, 'GET', '/metrics', basic)).status, 401, 'the remembered old password');
  t.is((await send(app, 'GET', '/metrics', bearer(staff.accessToken))).status, 401);
});

test('an unknown user is a CLI error naming it', async (t) => {
  const result = await runCli(['user:revoke-sessions', '--user', 'nobody-here@example.com']);
  t.is(result.code, 1);
  t.regex(result.stderr, /No user nobody-here@example\.com/);
});
