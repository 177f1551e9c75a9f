import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { closedPort } from './stack';
import { pointAtSandbox } from '../helpers/acquirer';
import { call, callJson } from '../helpers/http';

// Each web process loads its own config, so one file can run an unreachable and an unconfigured integration.
const CB = '/api/v1/acquirer/chargeback';
const EC = '3200000001';
let merchant: TestMerchant;
let unreachable: RunningProcess;
let unconfigured: RunningProcess;

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  merchant = await newMerchant({ establishmentNumbers: [EC] });
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const port = await closedPort();
  [unreachable, unconfigured] = await Promise.all([
    // the token endpoint answers (the sandbox), the chargeback API's port is closed
    startProcess('web', {
      ...pointAtSandbox(sandbox.url),
      ACQUIRER_CHARGEBACK_BASE_URL: `http://127.0.0.1:${port}/chargeback/v1`,
    }),
    startProcess('web', { ...pointAtSandbox(sandbox.url), ACQUIRER_CHARGEBACK_CLIENT_ID: '' }),
  ]);
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

test('a refused connection is 502 on every proxy operation', async (t) => {
  const answers = await Promise.all([
    call(unreachable, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {}),
    call(unreachable, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
      updateChargeback: [{ establishmentNumber: Number(EC), idChargeback: 1 }],
    }),
    call(unreachable, 'GET', `${CB}/list-issuer-documents/${EC}/1/`, bearer(merchant.accessToken)),
    call(unreachable, 'GET', `${CB}/document-issuer/${EC}/1/`, bearer(merchant.accessToken)),
    call(unreachable, 'GET', `${CB}/support-document/${EC}/1/`, bearer(merchant.accessToken)),
  ]);
  for (const res of answers) {
    t.is(res.status, 502);
    t.deepEqual(res.body, {
      detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.',
    });
  }
});

test('no chargeback credentials is 503', async (t) => {
  const res = await callJson(unconfigured, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {});
  t.is(res.status, 503);
  t.deepEqual(res.body, { detail: 'The chargeback integration is not configured.' });
  t.is((await call(unconfigured, 'GET', `${CB}/document-issuer/${EC}/1/`, bearer(merchant.accessToken))).status, 503);
});

test('our own 400 comes first even when the integration is off, and the views still answer', async (t) => {
  t.is((await call(unconfigured, 'POST', `${CB}/consult/`, bearer(merchant.accessToken), {})).status, 400);
  const count = await callJson(unconfigured, 'GET', `${CB}/pending-count/`, bearer(merchant.accessToken));
  t.is(count.status, 200);
  t.deepEqual(count.body, { count: 0 });
});

test('the token and the client secret never reach the logs', async (t) => {
  await call(unreachable, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {});
  const { getConfig } = await import('../../config');
  const logs = unreachable.logs.join('');
  t.false(logs.includes(getConfig().acquirer.chargeback.clientSecret));
  t.false(/access_token|Bearer [A-Za-z0-9_-]{20,}/.test(logs));
});
