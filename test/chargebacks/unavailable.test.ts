import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { closedPort, pointAtSandbox } from './stack';

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

const call = (web: RunningProcess, method: string, path: string, body?: unknown) =>
  fetch(`${web.url}${CB}${path}`, {
    method,
    headers: bearer(merchant.accessToken),
    body: body === undefined ? undefined : JSON.stringify(body),
  });

test('a refused connection is 502 on every proxy operation', async (t) => {
  const answers = await Promise.all([
    call(unreachable, 'POST', '/consult/?status=PENDING', {}),
    call(unreachable, 'PUT', '/accept/', { updateChargeback: [{ establishmentNumber: Number(EC), idChargeback: 1 }] }),
    call(unreachable, 'GET', `/list-issuer-documents/${EC}/1/`),
    call(unreachable, 'GET', `/document-issuer/${EC}/1/`),
    call(unreachable, 'GET', `/support-document/${EC}/1/`),
  ]);
  for (const res of answers) {
    t.is(res.status, 502);
    t.deepEqual(await json(res), {
      detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.',
    });
  }
});

test('no chargeback credentials is 503', async (t) => {
  const res = await call(unconfigured, 'POST', '/consult/?status=PENDING', {});
  t.is(res.status, 503);
  t.deepEqual(await json(res), { detail: 'The chargeback integration is not configured.' });
  t.is((await call(unconfigured, 'GET', `/document-issuer/${EC}/1/`)).status, 503);
});

test('our own 400 comes first even when the integration is off, and the views still answer', async (t) => {
  t.is((await call(unconfigured, 'POST', '/consult/', {})).status, 400);
  const count = await call(unconfigured, 'GET', '/pending-count/');
  t.is(count.status, 200);
  t.deepEqual(await json(count), { count: 0 });
});

test('the token and the client secret never reach the logs', async (t) => {
  await call(unreachable, 'POST', '/consult/?status=PENDING', {});
  const { getConfig } = await import('../../config');
  const logs = unreachable.logs.join('');
  t.false(logs.includes(getConfig().acquirer.chargeback.clientSecret));
  t.false(/access_token|Bearer [A-Za-z0-9_-]{20,}/.test(logs));
});
