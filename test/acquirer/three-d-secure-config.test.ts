/**
 * 3-D Secure's settings: off without its ClientId or ClientSecret (the client says so before any call), off in
 * production unless its secret is given, and then only with the acquirer's own address and client.
 */
import '../helpers/env';
import test from 'ava';
import { ConfigError, loadConfig } from '../../config';
import { AcquirerNotConfiguredError } from '../../src/acquirer/errors';
import { createThreeDSecureToken } from '../../src/acquirer/client';
import { productionEnvironment, STRONG_REDIS_PASSWORD } from '../helpers/production';

// This file's own config: 3-D Secure off, and an address where nothing listens, should a call be made anyway.
process.env.ACQUIRER_3DS_CLIENT_ID = '';
process.env.ACQUIRER_3DS_URL = 'http://127.0.0.1:9/mpi';

const securedRedis = { REDIS_URL: 'rediss://redis.internal:6380', REDIS_PASSWORD: STRONG_REDIS_PASSWORD };
const SECRET = 'q8Vz3Lp0Wd7Kx2Nc5Hb9';
const ON = {
  ACQUIRER_3DS_CLIENT_SECRET: SECRET,
  ACQUIRER_3DS_CLIENT_ID: '3f1d2c4b-9a8e-4f7d-8c6b-5a4e3d2c1b0a',
  ACQUIRER_3DS_URL: 'https://mpi.acquirer.invalid',
};

const production = (env: Record<string, string>) => loadConfig(productionEnvironment({ ...securedRedis, ...env }));
const refusal = (t: import('ava').ExecutionContext, env: Record<string, string>) =>
  t.throws(() => production(env), { instanceOf: ConfigError })!.message;

test('without a ClientId the client refuses to ask for a token, calling nothing', async (t) => {
  await t.throwsAsync(createThreeDSecureToken({ establishmentCode: '1234567890', merchantName: 'Loja', mcc: '5992' }), {
    instanceOf: AcquirerNotConfiguredError,
    message: /3-D Secure/,
  });
});

test('production leaves 3-D Secure off unless its secret is given, then wants the acquirer address and client', (t) => {
  t.is(production({}).acquirer.threeDSecure.clientSecret, '', 'off: no secret, nothing to call with');
  const on = production(ON);
  t.deepEqual(on.acquirer.threeDSecure, {
    url: ON.ACQUIRER_3DS_URL,
    clientId: ON.ACQUIRER_3DS_CLIENT_ID,
    clientSecret: SECRET,
  });

  const defaults = refusal(t, { ACQUIRER_3DS_CLIENT_SECRET: SECRET });
  t.regex(defaults, /ACQUIRER_3DS_URL is not set: its default is the sandbox/);
  t.regex(defaults, /ACQUIRER_3DS_CLIENT_ID is the sandbox client/);
  t.false(defaults.includes(SECRET), 'the secret never appears');
  t.regex(
    refusal(t, { ...ON, ACQUIRER_3DS_CLIENT_ID: 'payments-sandbox' }),
    /ACQUIRER_3DS_CLIENT_ID is the sandbox client/,
  );
  t.regex(refusal(t, { ...ON, ACQUIRER_3DS_URL: 'http://mpi.acquirer.invalid' }), /ACQUIRER_3DS_URL must be an https/);
  t.regex(
    refusal(t, { ...ON, ACQUIRER_3DS_URL: 'https://127.0.0.1:4100/mpi' }),
    /ACQUIRER_3DS_URL points at this machine/,
  );
  t.regex(
    refusal(t, { ...ON, ACQUIRER_3DS_URL: 'https://mpisandbox.braspag.com.br' }),
    /ACQUIRER_3DS_URL is a sandbox's address/,
  );
  t.regex(refusal(t, { ...ON, ACQUIRER_3DS_CLIENT_SECRET: 'short' }), /ACQUIRER_3DS_CLIENT_SECRET is too short/);
});
