import '../helpers/env';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import helmet from 'helmet';
import { startTestApp, type TestApp } from '../helpers/app';
import { getConfig } from '../../config';
import { helmetOptions, recordHelmetHeaders, servedOverHttps } from '../../src/web/security-headers';
import { startProcess, stopAll } from '../helpers/processes';

const OUR_OPTIONS = () => helmetOptions(servedOverHttps(getConfig()));

/** Headers of a GET exactly as sent: names with their case, in order, as [name, value] pairs. */
function rawHeaders(url: string, headers: Record<string, string> = {}): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        res.on('end', () => resolve(pairs));
      })
      .on('error', reject);
  });
}

/** What helmet's own middleware sends with our options: a bare app with helmet alone in front. */
async function helmetsOwnHeaders(): Promise<[string, string][]> {
  const bare = express();
  bare.use(helmet(OUR_OPTIONS()));
  bare.get('/', (_req, res) => {
    res.end();
  });
  const server = bare.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  try {
    const all = await rawHeaders(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // What Node itself adds is not helmet's.
    return all.filter(([name]) => !/^(date|connection|keep-alive|content-length|transfer-encoding)$/i.test(name));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.close();
  await stopAll();
});

test("every kind of answer carries helmet's headers byte for byte, in helmet's order, no X-Powered-By", async (t) => {
  const expected = await helmetsOwnHeaders();
  t.true(expected.length >= 12, JSON.stringify(expected));
  t.true(expected.some(([name]) => name === 'Content-Security-Policy'));
  const names = new Set(expected.map(([name]) => name.toLowerCase()));
  for (const [path, headers] of [
    ['/healthz', {}],
    ['/api/v1/me/', {}], // 401
    ['/api/v1/me/', { authorization: 'Bearer not-a-token' }], // 401 after the credential check
    ['/no/such/path', {}], // 404
    ['/api/docs/swagger.json', {}],
    ['/metrics', {}],
  ] as const) {
    const sent = await rawHeaders(`${app.url}${path}`, headers);
    t.deepEqual(
      sent.filter(([name]) => names.has(name.toLowerCase())),
      expected,
      path,
    );
    t.false(
      sent.some(([name]) => name.toLowerCase() === 'x-powered-by'),
      path,
    );
  }
});

test('the recorded list is what helmet sets, and a per-request directive is refused rather than frozen', (t) => {
  const recorded = recordHelmetHeaders(OUR_OPTIONS());
  t.deepEqual(recorded.removed, ['X-Powered-By']);
  t.true(recorded.set.some(([name, value]) => name === 'X-Content-Type-Options' && value === 'nosniff'));
  t.throws(
    () =>
      recordHelmetHeaders({
        contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-abc'"] } },
      }),
    { message: /computed per request/ },
  );
});

/** The Content-Security-Policy a server sends. */
async function contentSecurityPolicy(url: string): Promise<string> {
  const sent = await rawHeaders(`${url}/healthz`);
  return sent.find(([name]) => name === 'Content-Security-Policy')?.[1] ?? '';
}

test('upgrade-insecure-requests is sent only where the service is served over HTTPS', async (t) => {
  // Over plain HTTP the directive has browsers on any host but loopback fetch the pages' assets over https.
  t.is(new URL(getConfig().publicBaseUrl).protocol, 'http:');
  const overHttp = await contentSecurityPolicy(app.url);
  t.regex(overHttp, /default-src 'self'/);
  t.notRegex(overHttp, /upgrade-insecure-requests/);

  const behindTls = await startProcess('web', { PUBLIC_BASE_URL: 'https://pagamentos.example.com.br' });
  t.regex(await contentSecurityPolicy(behindTls.url), /;upgrade-insecure-requests$/);
  t.true(servedOverHttps({ publicBaseUrl: 'http://10.0.0.5:3000', nodeEnv: 'production' }));
  t.false(servedOverHttps({ publicBaseUrl: 'http://10.0.0.5:3000', nodeEnv: 'development' }));
});
