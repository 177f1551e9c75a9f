/**
 * Is a merchant's webhook URL safe for our servers to call? Public HTTPS only, so a merchant can
 * never point our workers at our own network (SSRF).
 *
 * Refused: any scheme but https; credentials in the URL; a port not in WEBHOOK_ALLOWED_PORTS (443
 * unless a deployment widens it: what a delivery reports about a port would otherwise let a merchant
 * probe any host's ports from our address); localhost names; a host that does not resolve; and a host
 * any of whose resolved addresses is loopback, private, link-local, CGNAT,
 * multicast, reserved, documentation, unspecified, IPv4-mapped/translated IPv6 and the like, and an
 * IPv6 address whose embedded IPv4 (6to4, Teredo, ISATAP, NAT64, ...) is any of those.
 * Numeric tricks (2130706433, 0177.0.0.1, 0x7f000001, 127.1) need no special code: the WHATWG URL
 * parser canonicalises them to dotted IPv4 and the address check then refuses them.
 *
 * The resolver is a parameter, so the decision is testable on address lists without a network;
 * deliveries pin the connection to the addresses checked here (no DNS rebinding in between).
 *
 * The rules hold whatever NODE_ENV. Two exceptions, both refused in production: a developer's own receiver
 * (WEBHOOKS_ALLOW_LOCALHOST: http or https to localhost, 127.0.0.1 or [::1], any port; npm start turns it on), and
 * the tests' explicit allow-list (WEBHOOK_TEST_ALLOW_HOSTS host:port pairs, `localhost:P` and `127.0.0.1:P` alike),
 * whose entries keep their own ports, so the port rule is exercised by the same tests that use the allow-list.
 */
import dns from 'node:dns';
import net from 'node:net';
import { getConfig } from '../../config';

export const UNSAFE_WEBHOOK_URL = 'Enter a safe public HTTPS URL';

/** The port rule's answer to the merchant: the field's message names the ports allowed and the one refused. */
export const unsafePortMessage = (allowedPorts: readonly number[], port: string) =>
  `${UNSAFE_WEBHOOK_URL} on port ${allowedPorts.join(' or ')} (not ${port})`;

/** Ports a webhook URL may name unless told otherwise (config: WEBHOOK_ALLOWED_PORTS). */
const HTTPS_PORTS = [443];

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * A refusal carries `reason`, for logs and the delivery's failure category, and `message`, the field's
 * answer to the merchant: UNSAFE_WEBHOOK_URL for every rule but the port's (which reveals nothing of a
 * network, and tells the merchant what to fix). Naming which address rule refused a host would tell
 * a merchant what our resolver sees.
 */
export type UrlVerdict =
  | { safe: true; url: URL; addresses: ResolvedAddress[]; allowListed: boolean }
  | { safe: false; reason: string; message: string };

/** Every range a webhook must not reach (IANA special-purpose registries, IPv4 and IPv6). */
// Two lists: node's BlockList matches IPv4 addresses against IPv6 rules through their mapped
// form, so the ::ffff:0:0/96 rule would otherwise refuse every IPv4 address.
const BLOCKED_V4 = new net.BlockList();
const BLOCKED_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  BLOCKED_V4.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['::ffff:0:0', 96], // IPv4-mapped: refused whatever the IPv4 inside
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 6145): refused whatever the IPv4 inside
  ['64:ff9b::', 96], // NAT64 well-known prefix: reaches IPv4 through a translator
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, ...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['3fff::', 20], // documentation (2024)
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED_V6.addSubnet(prefix, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 counts as two), or null. */
function ipv6Groups(address: string): number[] | null {
  const [headText, tailText, extra] = address.split('::');
  if (extra !== undefined) return null;
  const parse = (text: string | undefined): number[] | null => {
    if (!text) return [];
    const groups: number[] = [];
    for (const part of text.split(':')) {
      if (net.isIPv4(part)) {
        const [a, b, c, d] = part.split('.').map(Number);
        groups.push(a * 256 + b, c * 256 + d);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
      else return null;
    }
    return groups;
  };
  const head = parse(headText);
  const tail = parse(tailText);
  if (!head || !tail) return null;
  if (tailText === undefined) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing < 0 ? null : [...head, ...Array<number>(missing).fill(0), ...tail];
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries by a known scheme, so they meet the IPv4 rules too:
 * the last 32 bits of the mapped, translated, compatible and NAT64 forms (the whole ranges are also
 * blocked), 6to4's bits 16-47, Teredo's server and (inverted) client, and ISATAP's interface id
 * (::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d, under any prefix).
 */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const found: string[] = [];
  const upper96Zero = g.slice(0, 5).every((x) => x === 0);
  if (upper96Zero && (g[5] === 0 || g[5] === 0xffff)) found.push(v4Of(g[6], g[7])); // compatible, mapped
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) found.push(v4Of(g[6], g[7])); // translated
  if (g[0] === 0x64 && g[1] === 0xff9b) found.push(v4Of(g[6], g[7])); // NAT64 well-known and local-use
  if (g[0] === 0x2002) found.push(v4Of(g[1], g[2])); // 6to4
  // Teredo: the server's address, then the client's (stored inverted)
  if (g[0] === 0x2001 && g[1] === 0) found.push(v4Of(g[2], g[3]), v4Of(g[6] ^ 0xffff, g[7] ^ 0xffff));
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) found.push(v4Of(g[6], g[7])); // ISATAP
  return found;
}

/** True when the address may be called: a public unicast address. Anything unparsable is refused. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 0) return false;
  if (family === 4) return !BLOCKED_V4.check(bare, 'ipv4');
  return !BLOCKED_V6.check(bare, 'ipv6') && embeddedIpv4(bare).every((v4) => !BLOCKED_V4.check(v4, 'ipv4'));
}

function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return (
    name === '' ||
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    ['localhost.localdomain', 'ip6-localhost', 'ip6-loopback'].includes(name)
  );
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
}

export interface CheckOptions {
  resolve?: Resolver;
  /**
   * host:port pairs exempt from the rules (WEBHOOK_TEST_ALLOW_HOSTS; tests only, empty by default). `localhost` and
   * `127.0.0.1` name the same host here: either entry lets either spelling of the URL through, on that port only.
   */
  allowHosts?: string[];
  /** Whether http(s) to a loopback host on any port is allowed (WEBHOOKS_ALLOW_LOCALHOST; local development). */
  allowLoopback?: boolean;
  /** The ports a URL outside the allow-list may name (WEBHOOK_ALLOWED_PORTS); 443 when not given. */
  allowedPorts?: readonly number[];
}

/** The configured rules, for every caller that checks a merchant's URL (saving it, and before each delivery). */
export function configuredUrlRules(resolve?: Resolver): CheckOptions {
  const { testAllowHosts, allowLocalhost, allowedPorts } = getConfig().webhooks;
  return { resolve, allowHosts: testAllowHosts, allowLoopback: allowLocalhost, allowedPorts };
}

/**
 * The loopback hosts a developer's receiver may be named by, with the addresses each reaches: `localhost` both
 * loopback addresses (whichever the receiver listens on answers), with no DNS lookup.
 */
const LOOPBACK_HOSTS: Readonly<Record<string, ResolvedAddress[]>> = {
  localhost: [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
  '127.0.0.1': [{ address: '127.0.0.1', family: 4 }],
  '::1': [{ address: '::1', family: 6 }],
};

/** The allow-list spellings of a URL's host:port: `localhost` and `127.0.0.1` stand for each other. */
function allowListForms(hostname: string, port: string): string[] {
  const host = hostname.toLowerCase();
  const hosts = host === 'localhost' || host === '127.0.0.1' ? ['localhost', '127.0.0.1'] : [host];
  return hosts.map((name) => `${name}:${port}`);
}

/** The reason of a host with no address: a delivery reports it as DNS trouble, not as an unsafe URL. */
export const HOST_DOES_NOT_RESOLVE = 'host does not resolve';

const refused = (reason: string, message = UNSAFE_WEBHOOK_URL) => ({ safe: false, reason, message }) as const;

/** Decides whether our servers may call this URL, resolving its host. Never throws. */
export async function checkWebhookUrl(raw: unknown, options: CheckOptions = {}): Promise<UrlVerdict> {
  const resolve = options.resolve ?? systemResolver;
  if (typeof raw !== 'string' || raw.length > 2000) return refused('not a string of at most 2000 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refused('not a URL');
  }
  if (url.username || url.password) return refused('credentials in the URL');
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = defaultPort(url);
  const allowList = (options.allowHosts ?? []).map((entry) => entry.toLowerCase());
  const loopback = LOOPBACK_HOSTS[hostname];
  const listed = allowListForms(url.hostname, port).some((form) => allowList.includes(form));
  if ((url.protocol === 'http:' || url.protocol === 'https:') && (listed || (options.allowLoopback && loopback))) {
    const family = net.isIP(hostname);
    const addresses =
      loopback ?? (family ? [{ address: hostname, family: family as 4 | 6 }] : await resolve(hostname).catch(() => []));
    if (!addresses.length) return refused(HOST_DOES_NOT_RESOLVE);
    return { safe: true, url, addresses, allowListed: true };
  }
  if (url.protocol !== 'https:') return refused('not https');
  // Before any lookup: a refused port costs no DNS query, and its answer is the same for every host.
  const allowedPorts = options.allowedPorts ?? HTTPS_PORTS;
  if (!allowedPorts.includes(Number(port))) return refused(`port ${port}`, unsafePortMessage(allowedPorts, port));
  if (isLocalName(hostname)) return refused('localhost');
  const literal = net.isIP(hostname);
  if (literal) {
    return isPublicAddress(hostname)
      ? { safe: true, url, addresses: [{ address: hostname, family: literal as 4 | 6 }], allowListed: false }
      : refused('internal address');
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
  } catch {
    return refused(HOST_DOES_NOT_RESOLVE);
  }
  if (!addresses.length) return refused(HOST_DOES_NOT_RESOLVE);
  // Every address must be public: a name with one public and one internal address is refused,
  // since the connection could pick either.
  if (!addresses.every((a) => isPublicAddress(a.address))) return refused('resolves to an internal address');
  return { safe: true, url, addresses, allowListed: false };
}
