/**
 * Issue 15 item 7: IPv6 forms that embed an IPv4 address are held to the IPv4 rules. The review got
 * https://[::ffff:0:7f00:1]/ (IPv4-translated loopback) accepted as a webhook URL.
 */
import test from 'ava';
import { checkWebhookUrl, embeddedIpv4, isPublicAddress } from '../../src/platform/url-safety';

const noDns = async () => {
  throw new Error('no DNS in this test');
};

test('the IPv4-translated loopback of the review is refused', async (t) => {
  const verdict = await checkWebhookUrl('https://[::ffff:0:7f00:1]/', { resolve: noDns });
  t.false(verdict.safe);
});

test('every IPv6 form that embeds an internal IPv4 is refused', (t) => {
  const internal = [
    '::ffff:0:127.0.0.1', // translated, dotted
    '::ffff:0:a9fe:a9fe', // translated, metadata 169.254.169.254
    '::ffff:127.0.0.1', // mapped
    '::ffff:7f00:1',
    '::127.0.0.1', // compatible
    '64:ff9b::10.0.0.1', // NAT64 well-known
    '64:ff9b:1::a00:1', // NAT64 local-use
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::', // 6to4 of 192.168.1.1
    '2001:0:7f00:1::', // Teredo, server 127.0.0.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 inverted
    '2a00:1450:4001:81c::5efe:127.0.0.1', // ISATAP under a global prefix
    '2a00:1450:4001:81c:200:5efe:a9fe:a9fe', // ISATAP (universal bit), metadata
  ];
  for (const address of internal) t.false(isPublicAddress(address), address);
});

test('public IPv6, and ISATAP or Teredo-looking ones carrying public IPv4, still pass', (t) => {
  for (const address of ['2a00:1450:4001:81c::200e', '2606:4700:4700::1111', '2a00:1450:4001:81c::5efe:8.8.8.8'])
    t.true(isPublicAddress(address), address);
  t.deepEqual(embeddedIpv4('2002:0808:0808::1'), ['8.8.8.8']);
  t.deepEqual(embeddedIpv4('::ffff:0:7f00:1'), ['127.0.0.1']);
});
