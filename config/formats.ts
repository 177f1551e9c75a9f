/** The value formats several variables share: their Joi schemas and how their text becomes a field's value. */
import crypto from 'node:crypto';
import net from 'node:net';
import { Joi } from 'celebrate';
import type { Validated, ValidatedByName } from './declare';

export const positiveInt = Joi.number().integer().min(1);
export const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });

/** A choice among names, typed as that choice. */
export const oneOf = <const Choice extends string>(...choices: Choice[]) =>
  Joi.string().valid(...choices) as Joi.StringSchema<Choice>;

/** host:port,host:port (spaces allowed around entries), or empty. */
export const hostPortList = Joi.string()
  .allow('')
  .pattern(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/);

export const trimTrailingSlashes = (url: string) => url.replace(/\/+$/, '');

/** An instance name: lower-case letters and digits in dash-separated words, as it goes into names and prefixes. */
export const instanceName = Joi.string()
  .allow('')
  .max(20)
  .pattern(/^[a-z0-9]+(-[a-z0-9]+)*$/);

/**
 * How far INSTANCE moves the default ports: 0 without one, else a multiple of 10 from 10 to 990 that the name
 * always gives (a digest, so any two names rarely meet; if they do, the start names the port in use). Every default
 * port moves by the same amount, so a stack's ports keep their distances and two stacks' never meet.
 */
export function instancePortOffset(others: ValidatedByName): number {
  const name = String(others.INSTANCE ?? '');
  if (!name) return 0;
  return ((crypto.createHash('sha256').update(name).digest().readUInt32BE(0) % 99) + 1) * 10;
}

/** A name suffixed with `-INSTANCE` when an instance is named: a database name or a queue prefix of its own. */
export const forInstance = (name: string, others: ValidatedByName) =>
  others.INSTANCE ? `${name}-${String(others.INSTANCE)}` : name;

/** A port as given, or (empty) its default moved by INSTANCE; 0 stays 0 (any free port). */
export const portOrDefault = (port: Validated, defaultPort: number, others: ValidatedByName) =>
  port === '' ? defaultPort + instancePortOffset(others) : Number(port);

/** A port variable whose default follows INSTANCE. */
export const portSchema = Joi.number().port().allow('') as Joi.AnySchema<number | ''>;

/**
 * A local process's URL on the port another variable gives, for the defaults that follow a port (PORT moves
 * PUBLIC_BASE_URL, SANDBOX_PORT the acquirer URLs). Port 0 (any free port) is known only once listening, so it
 * keeps the port's own default (moved by INSTANCE).
 */
export const loopbackUrl = (port: Validated, defaultPort: number, others: ValidatedByName, path = '') =>
  `http://127.0.0.1:${portOrDefault(port, defaultPort, others) || defaultPort + instancePortOffset(others)}${path}`;

/** The entries of a comma-separated list, trimmed, empty ones left out. */
export const commaSeparated = (list: string) =>
  list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

export const hostPorts = (list: string) =>
  commaSeparated(list).map((entry) => {
    const colon = entry.lastIndexOf(':');
    return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
  });

/** This machine's addresses: loopback, and the unspecified address a connection to which reaches this machine too. */
const THIS_MACHINE = new net.BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('0.0.0.0', 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

/**
 * Whether a host (a URL's hostname, or host[:port] of a connection string) is this machine: localhost, a
 * .localhost name, or a loopback address in any of its spellings (the URL parser reads 127.1 and [::ffff:7f00:1]).
 */
export function isLoopbackHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const family = net.isIP(hostname);
  return family !== 0 && THIS_MACHINE.check(hostname, family === 4 ? 'ipv4' : 'ipv6');
}

/** The names Express's trust proxy (proxy-addr) takes for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address range of a TRUST_PROXY list: [address, prefix length], or undefined when the entry is not one. */
export function proxyRange(entry: string): [address: string, bits: number] | undefined {
  const [address, range, ...more] = entry.split('/');
  const family = net.isIP(address);
  if (!family || more.length) return undefined;
  const all = family === 4 ? 32 : 128;
  if (range === undefined) return [address, all];
  if (/^\d{1,3}$/.test(range) && Number(range) <= all) return [address, Number(range)];
  // An IPv4 netmask, as proxy-addr also takes (10.0.0.0/255.0.0.0): its bits, when they are contiguous.
  if (family !== 4 || !net.isIPv4(range)) return undefined;
  const mask = range
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(mask) ? [address, mask.replace(/0+$/, '').length] : undefined;
}

/**
 * TRUST_PROXY: false, true, a hop count, or a comma-separated list of proxy addresses, ranges (CIDR or netmask) and
 * proxy-addr's names, as Express's trust proxy takes them; anything else would only fail once the app is built.
 */
export const trustProxySchema = Joi.string().custom((value: string, helpers) => {
  // Every entry, empty ones too: Express splits on commas and fails on an empty entry.
  const list = value.split(',').map((entry) => entry.trim());
  const valid =
    ['false', 'true'].includes(value) ||
    /^\d+$/.test(value) ||
    list.every((entry) => PROXY_RANGE_NAMES.includes(entry) || proxyRange(entry));
  return valid ? value : helpers.error('any.invalid');
});
