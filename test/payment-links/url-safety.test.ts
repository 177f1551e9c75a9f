import '../helpers/env';
import test from 'ava';
import { checkWebhookUrl, isPublicAddress, type ResolvedAddress, type Resolver } from '../../src/platform/url-safety';

/** A resolver answering from a table, so the decision is tested without a network. */
function table(entries: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const found = entries[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

const refusedUrls = [
  'http://hooks.example.com/x', // not https
  'ftp://hooks.example.com/x',
  'javascript:alert(1)',
  'not a url',
  '',
  'https://user:pass@hooks.example.com/x', // credentials
  'https://user@hooks.example.com/x',
  'https://localhost/x',
  'https://LOCALHOST./x',
  'https://api.localhost/x',
  'https://127.0.0.1/x',
  'https://127.255.255.254/x',
  'https://2130706433/x', // decimal 127.0.0.1
  'https://0177.0.0.1/x', // octal
  'https://0x7f000001/x', // hex
  'https://0x7f.0.0.1/x',
  'https://127.1/x', // short form
  'https://0/x',
  'https://0.0.0.0/x',
  'https://10.1.2.3/x',
  'https://172.16.0.1/x',
  'https://172.31.255.255/x',
  'https://192.168.1.1/x',
  'https://169.254.169.254/latest/meta-data/', // cloud metadata, link-local
  'https://100.64.0.1/x', // CGNAT
  'https://100.127.255.255/x',
  'https://224.0.0.1/x', // multicast
  'https://239.255.255.250/x',
  'https://240.0.0.1/x', // reserved
  'https://255.255.255.255/x', // broadcast
  'https://192.0.2.10/x', // documentation
  'https://198.18.0.1/x', // benchmarking
  'https://[::1]/x',
  'https://[::]/x',
  'https://[::ffff:127.0.0.1]/x', // IPv4-mapped
  'https://[::ffff:8.8.8.8]/x', // IPv4-mapped, even of a public address
  'https://[::ffff:7f00:1]/x',
  'https://[fe80::1]/x', // link-local
  'https://[fc00::1]/x', // unique local
  'https://[fd12:3456:789a::1]/x',
  'https://[ff02::1]/x', // multicast
  'https://[64:ff9b::7f00:1]/x', // NAT64 of 127.0.0.1
  'https://[2002:7f00:1::]/x', // 6to4 of 127.0.0.1
  'https://[2001:db8::1]/x', // documentation
  'https://internal.example.com/x', // resolves to a private address
  'https://mixed.example.com/x', // one public and one private address
  'https://metadata.example.com/x',
  'https://v6private.example.com/x',
  'https://mapped.example.com/x',
  'https://nowhere.example.com/x', // does not resolve
  'https://empty.example.com/x', // resolves to nothing
];

const resolver = table({
  'hooks.example.com': [PUBLIC_V4, PUBLIC_V6],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': [PUBLIC_V4, '192.168.0.10'],
  'metadata.example.com': ['169.254.169.254'],
  'v6private.example.com': ['fd00::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'empty.example.com': [],
});

for (const url of refusedUrls) {
  test(`refuses ${url || '(empty)'}`, async (t) => {
    const verdict = await checkWebhookUrl(url, { resolve: resolver });
    t.false(verdict.safe);
  });
}

test('accepts a public https name whose every address is public', async (t) => {
  const verdict = await checkWebhookUrl('https://hooks.example.com/payments?x=1', { resolve: resolver });
  t.true(verdict.safe);
  if (verdict.safe) {
    t.deepEqual(
      verdict.addresses.map((a) => a.address),
      [PUBLIC_V4, PUBLIC_V6],
    );
    t.false(verdict.allowListed);
  }
});

test('accepts public ip literals', async (t) => {
  t.true((await checkWebhookUrl('https://8.8.8.8/x', { resolve: resolver })).safe);
  t.true((await checkWebhookUrl('https://[2606:4700:4700::1111]/x', { resolve: resolver })).safe);
});

test('real lookups: localhost names and unresolvable hosts are refused', async (t) => {
  for (const url of [
    'https://localhost/x',
    'https://localhost.localdomain/x',
    'https://does-not-exist.invalid/x',
    'https://ip6-localhost/x',
  ]) {
    const verdict = await checkWebhookUrl(url);
    t.false(verdict.safe, url);
  }
});

test('the test allow-list admits exactly its host:port pairs, http included', async (t) => {
  const allowHosts = ['127.0.0.1:4567'];
  const allowed = await checkWebhookUrl('http://127.0.0.1:4567/hook', { allowHosts });
  t.true(allowed.safe);
  if (allowed.safe) t.true(allowed.allowListed);
  t.false((await checkWebhookUrl('http://127.0.0.1:4568/hook', { allowHosts })).safe);
  t.false((await checkWebhookUrl('http://127.0.0.1:4567/hook')).safe);
  t.false((await checkWebhookUrl('http://user:pw@127.0.0.1:4567/hook', { allowHosts })).safe);
});

test('a port other than 443 is refused before any lookup, naming the port; a deployment may allow more', async (t) => {
  let lookups = 0;
  const counting: Resolver = (hostname) => {
    lookups++;
    return resolver(hostname);
  };
  for (const [url, port] of [
    ['https://1.1.1.1:6379/', '6379'],
    ['https://hooks.example.com:8443/x', '8443'],
    ['https://hooks.example.com:80/x', '80'],
    ['https://[2606:4700:4700::1111]:22/x', '22'],
    ['https://hooks.example.com:0/x', '0'],
  ]) {
    const verdict = await checkWebhookUrl(url, { resolve: counting });
    t.false(verdict.safe, url);
    if (!verdict.safe) {
      t.is(verdict.reason, `port ${port}`, url);
      t.is(verdict.message, `Enter a safe public HTTPS URL on port 443 (not ${port})`, url);
    }
  }
  t.is(lookups, 0);
  t.true((await checkWebhookUrl('https://hooks.example.com:443/x', { resolve: resolver })).safe);
  // Widened by WEBHOOK_ALLOWED_PORTS: 8443 is accepted, every other address rule still applies.
  const allowedPorts = [443, 8443];
  t.true((await checkWebhookUrl('https://hooks.example.com:8443/x', { resolve: resolver, allowedPorts })).safe);
  t.false((await checkWebhookUrl('https://10.0.0.1:8443/x', { resolve: resolver, allowedPorts })).safe);
  const other = await checkWebhookUrl('https://1.1.1.1:6379/', { resolve: resolver, allowedPorts });
  t.like(other, { safe: false, message: 'Enter a safe public HTTPS URL on port 443 or 8443 (not 6379)' });
  // Every other refusal keeps the one message, which says nothing of what our resolver sees.
  t.like(await checkWebhookUrl('https://internal.example.com/x', { resolve: resolver }), {
    safe: false,
    message: 'Enter a safe public HTTPS URL',
  });
});

test('an allow-listed test host keeps its port; the same port elsewhere is refused', async (t) => {
  const allowHosts = ['127.0.0.1:6379'];
  t.true((await checkWebhookUrl('http://127.0.0.1:6379/hook', { allowHosts })).safe);
  t.like(await checkWebhookUrl('https://1.1.1.1:6379/hook', { allowHosts }), { safe: false, reason: 'port 6379' });
});

test('address classification', (t) => {
  for (const address of ['8.8.8.8', '1.1.1.1', PUBLIC_V4, PUBLIC_V6, '2606:4700:4700::1111'])
    t.true(isPublicAddress(address), address);
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '::1',
    '::ffff:1.1.1.1',
    'fe80::1',
    'not-an-ip',
    '',
  ])
    t.false(isPublicAddress(address), address);
});
