/**
 * What production runs: `npm run build` compiles to dist/, and the Procfile's processes run the compiled JavaScript
 * with plain node (no tsx, no typescript at run time). This file builds, runs the compiled release command (the
 * migrations) to its end, then starts the compiled web, worker and sandbox exactly as the Procfile says and runs a
 * short journey on them: a token, a card pre-capture against the sandbox, and a payment link whose webhook the
 * compiled worker delivers from the queue.
 */
import '../helpers/env';
import test from 'ava';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { builtinModules } from 'node:module';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { fromSource, readProcfile } from '../../src/devstack/procfile';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { call, callJson } from '../helpers/http';
import { eventually, ROOT, runCommand, startProcess, stopAll, type RunningProcess } from '../helpers/processes';

const procfile = readProcfile();
const compiled = (name: string) => {
  const entry = procfile.find((e) => e.name === name);
  if (!entry) throw new Error(`no ${name} in the Procfile`);
  const [program, ...args] = entry.command;
  if (program !== 'node') throw new Error(`the Procfile's ${name} does not run node`);
  return args;
};

const deliveries: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    deliveries.push(String(req.headers['webhook-id']));
    res.writeHead(200).end();
  });
});

let build: { code: number | null; stdout: string; stderr: string };
let release: { code: number | null; stdout: string; stderr: string };
let web: RunningProcess;
let merchant: TestMerchant;
let hookUrl: string;

test.before(async () => {
  build = await runCommand('npm', ['run', '-s', 'build']);
  if (build.code !== 0) return;
  release = await runCommand(process.execPath, compiled('release'), { env: { ...process.env, LOG_LEVEL: 'info' } });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  hookUrl = `http://${hookHost}/hook`;
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' }, undefined, undefined, compiled('sandbox'));
  const env = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, WEBHOOK_TEST_ALLOW_HOSTS: hookHost };
  [web] = await Promise.all([
    startProcess('web', env, undefined, undefined, compiled('web')),
    startProcess('worker', env, undefined, undefined, compiled('worker')),
  ]);
  await connectDatabase(process.env.MONGODB_URI!);
  merchant = await newMerchant();
});
test.after.always(async () => {
  await stopAll();
  receiver.closeAllConnections();
  receiver.close();
  await disconnectDatabase();
});

test('npm run build compiles every process with source maps', (t) => {
  t.is(build.code, 0, build.stderr + build.stdout);
  for (const entry of procfile) {
    const file = path.join(
      ROOT,
      compiled(entry.name).find((arg) => arg.endsWith('.js'))!,
    );
    t.true(fs.existsSync(file), `${entry.name}: ${file} built`);
    t.true(fs.existsSync(`${file}.map`), `${entry.name}: its source map`);
    t.true(compiled(entry.name).includes('--enable-source-maps'), `${entry.name}: stack traces name the .ts lines`);
  }
});

test('the compiled release command runs the migrations to their end before the processes start', (t) => {
  t.is(release?.code, 0, release?.stderr);
  t.regex(release.stdout, /migrations done: 1 run \(0001-sweep-flags\)/);
});

test('the compiled code needs only the dependencies production installs', (t) => {
  const { dependencies, devDependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  t.truthy(devDependencies.tsx, 'tsx is dev-only');
  t.truthy(devDependencies.typescript, 'typescript is dev-only');
  t.falsy(dependencies.tsx);
  t.falsy(dependencies.typescript);
  const packages = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.js'))
        for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/require(?:\.resolve)?\("([^".][^"]*)"\)/g))
          packages.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]);
    }
  };
  walk(path.join(ROOT, 'dist'));
  const builtins = new Set(builtinModules);
  const outside = [...packages].filter(
    (name) => !name.startsWith('node:') && !builtins.has(name) && !dependencies[name],
  );
  t.deepEqual(outside, [], 'every package the compiled code requires is a dependency, not a devDependency');
  t.true(packages.has('express'), 'the scan finds requires');
});

test('npm start runs the same processes from the TypeScript source', (t) => {
  t.deepEqual(fromSource(['node', '--enable-source-maps', 'dist/workers/worker.js']), [
    'node',
    '--import',
    'tsx',
    'workers/worker.ts',
  ]);
  for (const entry of procfile) t.true(fs.existsSync(path.join(ROOT, fromSource(entry.command).at(-1)!)));
});

test('a journey on the compiled processes: token, pre-capture, a webhook sent by the worker', async (t) => {
  const token = await callJson(
    web,
    'POST',
    '/api/token/',
    {},
    { username: merchant.email, password: merchant.password },
  );
  t.is(token.status, 200);
  const sale = await callJson(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(token.body.access),
    cardSaleBody(encryptedTestCard()),
  );
  t.is(sale.status, 200, JSON.stringify(sale.body));
  t.true(sale.body.data.approved);

  const link = await callJson(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
    value: 2500,
    description: 'compiled journey',
    webhookUrl: hookUrl,
  });
  t.is(link.status, 201, JSON.stringify(link.body));
  const checkout = `/api/v1/checkout-links/${link.body.payment_link_guid}`;
  const json = { 'content-type': 'application/json' };
  t.is(
    (await call(web, 'PATCH', `${checkout}/payer`, json, { payer_name: 'Maria Silva', document: '529.982.247-25' }))
      .status,
    200,
  );
  t.is((await call(web, 'PUT', `${checkout}/pay`, json, { encrypted_card: encryptedTestCard() })).status, 200);
  await eventually(() => deliveries.some((id) => id.startsWith(`msg_${link.body.id}_`)), 30_000, 200);
  t.pass('the compiled worker delivered the paid event');
});
