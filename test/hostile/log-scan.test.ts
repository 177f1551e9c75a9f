import '../helpers/env';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { getConfig } from '../../config';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { CHARGEBACK_NOTICE_PATH, CHARGEBACK_NOTICE_SECRET_HEADER } from '../../src/acquirer/chargebacks';
import { startProcess } from '../helpers/processes';
import { newMerchant, systemToken } from '../helpers/identity';
import { useServices } from '../helpers/services';
import { call } from '../helpers/http';

const CARD = '4000000000000010';
const CVV = '738';
const WRONG_PASSWORD = 'Wr0ng-But-Secret-Passw0rd!';

useServices();

test('a full run at debug level never logs a card number, cvv, password, token or secret', async (t) => {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', LOG_LEVEL: 'debug' });
  const env = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, LOG_LEVEL: 'debug' };
  const [web, worker] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
  const merchant = await newMerchant();
  const card = encryptedTestCard({ number: CARD, cvv: CVV });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  // Logins, good and bad; every credential kind used.
  const login = await call(web, 'POST', '/api/token/', {}, { username: merchant.email, password: merchant.password });
  t.is(login.status, 200);
  const { access, refresh } = JSON.parse(login.text) as { access: string; refresh: string };
  await call(web, 'POST', '/api/token/', {}, { username: merchant.email, password: WRONG_PASSWORD });
  await call(web, 'POST', '/api/token/refresh/', {}, { refresh });
  await call(web, 'POST', '/api/token/refresh/', {}, { refresh: access });
  await call(web, 'GET', '/api/v1/me/', bearer(access));
  await call(web, 'GET', '/api/v1/me/', bearer(merchant.merchantToken));
  await call(web, 'GET', '/api/v1/me/', { ...bearer(systemToken()), 'x-merchant-id': String(merchant.merchantId) });
  await call(web, 'GET', '/api/v1/me/', bearer(`${access}x`));
  // An expired access token is told it expired (WWW-Authenticate and body), never logged.
  const expired = jwt.sign(
    { sub: String(merchant.userId), typ: 'access', role: 'merchant', mid: merchant.merchantId, exp: 1_000_000_000 },
    getConfig().jwt.secret,
    { algorithm: 'HS256' },
  );
  const expiredAnswer = await call(web, 'GET', '/api/v1/me/', bearer(expired));
  t.is(expiredAnswer.status, 401);
  t.regex(expiredAnswer.headers.get('www-authenticate') ?? '', /error_description="The access token expired"/);

  // Card sales (approved and with the card sent in the clear by mistake), and bodies that fail to parse.
  const sale = await call(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    cardSaleBody(card),
  );
  t.is(sale.status, 200, sale.text);
  await call(web, 'POST', '/api/v1/online/sales/pre-capture/', bearer(merchant.merchantToken), {
    payment_method: 'card',
    value: 1990,
    card_number: CARD,
    cvv: CVV,
    password: WRONG_PASSWORD,
  });
  await call(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    `{"card_number": ${CARD}, "cvv": "${CVV}" oops`,
  );
  await call(web, 'POST', '/api/token/', {}, `{"username": "${merchant.email}", "password": "${WRONG_PASSWORD}"`);

  // A payment link paid through the checkout.
  const link = await call(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
    value: 2590,
    description: 'Log scan',
  });
  const guid = (JSON.parse(link.text) as { payment_link_guid: string }).payment_link_guid;
  await call(
    web,
    'PATCH',
    `/api/v1/checkout-links/${guid}/payer`,
    {},
    { payer_name: 'Maria Silva', document: '529.982.247-25' },
  );
  const paid = await call(web, 'PUT', `/api/v1/checkout-links/${guid}/pay`, {}, { encrypted_card: card });
  t.is(paid.status, 200, paid.text);

  // Shared secrets: chargeback notices and the metrics endpoint.
  const secret = getConfig().acquirer.chargeback.notificationSecret;
  await call(
    web,
    'POST',
    CHARGEBACK_NOTICE_PATH,
    { [CHARGEBACK_NOTICE_SECRET_HEADER]: secret },
    { establishmentNumber: 1234567890, caseId: 1, message: 'Em análise', ActionCicleDate: '2030-01-05' },
  );
  await call(web, 'POST', CHARGEBACK_NOTICE_PATH, { [CHARGEBACK_NOTICE_SECRET_HEADER]: `${secret}-wrong` }, {});
  const { user, password } = getConfig().dashboard;
  await call(web, 'GET', '/metrics', {
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  await call(web, 'GET', '/metrics', {
    authorization: `Basic ${Buffer.from(`${user}:${WRONG_PASSWORD}`).toString('base64')}`,
  });

  await Promise.all([web.stop(), worker.stop(), sandbox.stop()]);
  const logs = { web: web.logs.join(''), worker: worker.logs.join(''), sandbox: sandbox.logs.join('') };
  t.true(logs.web.split('\n').length > 20, 'the web process did log the run');

  const secrets: Record<string, string> = {
    'merchant password': merchant.password,
    'wrong password': WRONG_PASSWORD,
    'access token': access,
    'refresh token': refresh,
    'access token signature': access.split('.')[2],
    'expired access token signature': expired.split('.')[2],
    'merchant token': merchant.merchantToken,
    'system token': systemToken(),
    'notification secret': secret,
    'dashboard password': password,
    'acquirer merchant key': getConfig().acquirer.merchantKey,
    'encrypted card': card.slice(0, 40),
  };
  const found: string[] = [];
  for (const [processName, text] of Object.entries(logs)) {
    for (const [what, value] of Object.entries(secrets))
      if (value && text.includes(value)) found.push(`${processName}: ${what}`);
    if (new RegExp(CARD.split('').join('[ .-]?')).test(text)) found.push(`${processName}: card number`);
    if (new RegExp(`(cvv|securitycode|security_code)\\W{0,6}${CVV}`, 'i').test(text)) found.push(`${processName}: cvv`);
  }
  t.deepEqual(found, []);
});
