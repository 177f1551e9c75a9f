/**
 * Issue 27 item 5: while the rate limiter cannot reach Redis, no password is checked (the operator's
 * one included: it used to run unlimited then). A web process on a Redis this file stops.
 */
import '../helpers/env';
import './quiet-logs';
import test from 'ava';
import { getConfig } from '../../config';
import { eventually, startProcess } from '../helpers/processes';
import { bearer, newStaff, systemToken } from '../helpers/identity';
import { useServicesOnOwnedRedis } from './owned-services';
import { send } from '../helpers/http';

const owned = useServicesOnOwnedRedis();

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

test('with redis stopped, every password check answers 503 without checking the password', async (t) => {
  const web = await startProcess('web');
  const staff = await newStaff();
  const { user, password } = getConfig().dashboard;
  const metrics = (headers: Record<string, string>) => send(web, 'GET', '/metrics', headers);
  const token = (username: string, secret: string) =>
    send(web, 'POST', '/api/token/', {}, { username, password: secret });

  await owned.redis.stop();
  // Right and wrong passwords get the same answer: neither was compared.
  const answers = {
    operatorRight: (await metrics(basic(user, password))).status,
    operatorWrong: (await metrics(basic(user, 'a-wrong-guess'))).status,
    staffRight: (await metrics(basic(staff.email, staff.password))).status,
    staffWrong: (await metrics(basic(staff.email, 'a-wrong-guess'))).status,
    tokenRight: (await token(staff.email, staff.password)).status,
    tokenWrong: (await token(staff.email, 'a-wrong-guess')).status,
  };
  t.deepEqual(answers, {
    operatorRight: 503,
    operatorWrong: 503,
    staffRight: 503,
    staffWrong: 503,
    tokenRight: 503,
    tokenWrong: 503,
  });
  const refused = await metrics(basic(user, password));
  t.truthy(refused.headers.get('retry-after'));
  // What is no password still opens /metrics, so the outage can be watched.
  t.is((await metrics(bearer(systemToken()))).status, 200);

  await owned.redis.start();
  await eventually(async () => (await metrics(basic(user, password))).status === 200, 15_000, 250);
  t.is((await token(staff.email, staff.password)).status, 200);
});
