import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { freePort, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { cardSale, pixSale } from '../sales/helpers';

// Only the two ports are set: every URL the web process builds and the acquirer URLs it calls must follow them.
const DERIVED = [
  'PUBLIC_BASE_URL',
  'SANDBOX_NOTIFY_URL',
  'ACQUIRER_BASE_URL',
  'ACQUIRER_QUERY_URL',
  'ACQUIRER_CHARGEBACK_BASE_URL',
  'ACQUIRER_CHARGEBACK_AUTH_URL',
];
for (const name of DERIVED) delete process.env[name];

let web: RunningProcess;
let sandbox: RunningProcess;
let ports: { PORT: string; SANDBOX_PORT: string };

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  ports = { PORT: String(await freePort()), SANDBOX_PORT: String(await freePort()) };
  sandbox = await startProcess('sandbox', ports);
  web = await startProcess('web', ports);
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

test('PORT moves PUBLIC_BASE_URL and sandbox notices, SANDBOX_PORT acquirer URLs, as start lines say', async (t) => {
  const webUrl = `http://127.0.0.1:${ports.PORT}`;
  const sandboxUrl = `http://127.0.0.1:${ports.SANDBOX_PORT}`;
  t.is(web.url, webUrl);
  t.is(sandbox.url, sandboxUrl);
  t.regex(web.logs.join(''), new RegExp(`public URL ${webUrl}, acquirer ${sandboxUrl}\\)`));
  t.regex(sandbox.logs.join(''), new RegExp(`notices to ${webUrl}\\)`));
  const merchant = await newMerchant();

  const link = await callJson(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), { value: 1500 });
  t.is(link.status, 201);
  t.is(link.body.payment_link_url, `${webUrl}/checkout/${link.body.payment_link_guid}`);

  const card = await callJson(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    cardSale(),
  );
  t.is(card.status, 200, JSON.stringify(card.body));
  t.is(card.body.data.sale_status, 'PRE_CAPTURED');

  // The sandbox's notice of a paid PIX reaches the web process with no notifyUrl given.
  const pix = await callJson(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    pixSale(),
  );
  t.is(pix.status, 200, JSON.stringify(pix.body));
  const paid = await callJson(sandbox, 'POST', `/sandbox/pix/${pix.body.data.acquirer.payment_id}/pay`);
  t.is(paid.body.notification.status, 200, JSON.stringify(paid.body));
});
