import '../helpers/env';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken } from '../helpers/identity';
import { call, callJson, send } from '../helpers/http';
import jwt from 'jsonwebtoken';
import { signToken } from '../../src/auth/tokens';
import { UserModel } from '../../src/auth/model';
import { getConfig } from '../../config';

let app: TestApp;
let merchantJwt: string;
let merchantToken: string;
let merchantId: number;
let staffJwt: string;
let staffRefresh: string;

test.before(async () => {
  app = await startTestApp();
  const merchant = await newMerchant();
  merchantJwt = merchant.accessToken;
  merchantToken = merchant.merchantToken;
  merchantId = merchant.merchantId;
  const staff = await newStaff();
  staffJwt = staff.accessToken;
  staffRefresh = signToken('refresh', { _id: staff.userId, role: 'staff', merchantId: null });
});
test.after.always(() => app?.close());

const validContact = () => ({ name: 'Auth Teste', email: `auth-${Date.now()}-${Math.random()}@example.com` });

const ROUTES: { method: string; path: () => string; body?: () => unknown }[] = [
  { method: 'GET', path: () => '/api/v1/commercial-contacts/' },
  { method: 'POST', path: () => '/api/v1/commercial-contacts/', body: validContact },
  { method: 'PATCH', path: () => '/api/v1/commercial-contacts/1/', body: () => ({ title: 'x' }) },
  { method: 'GET', path: () => `/api/v1/merchants/${merchantId}/commercial-contacts/` },
  { method: 'GET', path: () => '/api/v1/global-ceo/' },
  { method: 'PUT', path: () => '/api/v1/global-ceo/', body: validContact },
];

const callRoute = (route: (typeof ROUTES)[number], headers: Record<string, string>) =>
  callJson(app, route.method, route.path(), headers, route.body?.());

test('no or invalid credential is 401 on every route', async (t) => {
  for (const route of ROUTES) {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nonsense' },
      { authorization: 'Bearer mt_unknown' },
      { authorization: `Bearer ${staffRefresh}` },
      { authorization: `Basic ${staffJwt}` },
    ];
    for (const headers of variants) {
      const res = await callRoute(route, headers);
      t.is(res.status, 401, `${route.method} ${route.path()} ${JSON.stringify(headers).slice(0, 40)}`);
      t.is(typeof res.body.detail, 'string');
    }
  }
});

test('merchant credentials are 403 on every route', async (t) => {
  for (const route of ROUTES) {
    for (const token of [merchantJwt, merchantToken]) {
      const res = await callRoute(route, bearer(token));
      t.is(res.status, 403, `${route.method} ${route.path()}`);
      t.deepEqual(res.body, {
        detail:
          'This credential is not accepted by this operation; it accepts a JWT access token of a staff user, ' +
          'or the system token.',
      });
    }
  }
});

test('a staff jwt and the system token are accepted', async (t) => {
  for (const token of [staffJwt, systemToken()]) {
    const created = await callRoute(ROUTES[1], bearer(token));
    t.is(created.status, 201);
    for (const route of ROUTES.filter((r) => r !== ROUTES[1])) {
      const path = route.method === 'PATCH' ? () => `/api/v1/commercial-contacts/${created.body.id}/` : route.path;
      const res = await callRoute({ ...route, path }, bearer(token));
      t.is(res.status, 200, `${route.method} ${path()}`);
    }
  }
});

test('the system token may carry the id of an existing merchant', async (t) => {
  const res = await callRoute(ROUTES[0], bearer(systemToken(), { 'x-merchant-id': String(merchantId) }));
  t.is(res.status, 200);
});

test('the staff role is read from the user, not from the token', async (t) => {
  const list = ROUTES[0];
  // a merchant user's id under a staff role claim, signed with our own secret
  const merchant = await newMerchant();
  const forged = jwt.sign(
    { sub: String(merchant.userId), typ: 'access', role: 'staff', mid: null },
    getConfig().jwt.secret,
    { algorithm: 'HS256', expiresIn: 60 },
  );
  t.is((await callRoute(list, bearer(forged))).status, 403);
  // staff demoted after the token was issued, and staff deleted
  const demoted = await newStaff();
  await UserModel.updateOne({ _id: demoted.userId }, { $set: { role: 'merchant' } });
  t.is((await callRoute(list, bearer(demoted.accessToken))).status, 403);
  const deleted = await newStaff();
  await UserModel.deleteOne({ _id: deleted.userId });
  t.is((await callRoute(list, bearer(deleted.accessToken))).status, 401);
});

test('an expired or unsigned staff token is 401', async (t) => {
  const staff = await newStaff();
  const claims = { sub: String(staff.userId), typ: 'access', role: 'staff', mid: null };
  const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, getConfig().jwt.secret, {
    algorithm: 'HS256',
  });
  const unsigned = jwt.sign(claims, '', { algorithm: 'none' } as jwt.SignOptions);
  for (const token of [expired, unsigned]) t.is((await callRoute(ROUTES[0], bearer(token))).status, 401);
});

test('credentials are checked before the body', async (t) => {
  const badBodyWith = (headers: Record<string, string>) =>
    call(app, 'POST', '/api/v1/commercial-contacts/', headers, '{"bad": true}');
  t.is((await badBodyWith({})).status, 401);
  t.is((await badBodyWith(bearer(merchantToken))).status, 403);
});

test('every route is in the swagger document with its error bodies', async (t) => {
  const doc = await json(await send(app, 'GET', '/api/docs/swagger.json', undefined));
  for (const route of ROUTES) {
    const path = route.path().replace(/\/\d+\//, route.method === 'PATCH' ? '/{pk}/' : '/{id}/');
    const op = doc.paths[path]?.[route.method.toLowerCase()];
    t.truthy(op, `${route.method} ${path}`);
    t.truthy(op.responses['401'] && op.responses['403']);
    t.deepEqual(op.security, [{ BearerAuth: [] }]);
  }
  t.is(doc.paths['/api/v1/commercial-contacts/'].post.responses['400'].schema.$ref, '#/definitions/FieldErrors');
  t.is(doc.paths['/api/v1/commercial-contacts/{pk}/'].patch.responses['404'].schema.$ref, '#/definitions/ErrorDetail');
  for (const name of [
    'CommercialContact',
    'CommercialContactCreate',
    'CommercialContactPatch',
    'GlobalCeo',
    'GlobalCeoPut',
  ])
    t.truthy(doc.definitions[name], name);
});
