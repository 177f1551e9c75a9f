/**
 * What a test needs to run Redis the way production should: a throwaway CA with a server and a
 * client certificate (made with openssl in a temporary folder), the redis-server arguments that
 * turn on TLS only (no plain port), a password and an ACL user, and the environment that points our
 * processes at such a Redis.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis, { type RedisOptions } from 'ioredis';
import { runCommand } from './processes';

export interface TestPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  /** PEM texts, as REDIS_TLS_CA, REDIS_TLS_CERT and REDIS_TLS_KEY take them. */
  ca: string;
  clientCert: string;
  clientKey: string;
  /** A CA no Redis of the test trusts, and a client certificate it signed. */
  strangerCert: string;
  strangerKey: string;
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  const result = await runCommand('openssl', args, { cwd: dir });
  if (result.code !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
}

/** A CA and a certificate it signs for `name` (EC keys: quick to make and to handshake on a busy machine). */
async function certificateAuthority(dir: string, name: string): Promise<void> {
  // prettier-ignore
  await openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', `${name}-ca.key`, '-out', `${name}-ca.crt`, '-days', '2', '-subj', `/CN=${name} test CA`);
}

async function signedCertificate(dir: string, ca: string, name: string): Promise<void> {
  // The address is in the subject alternative names: Node checks the server by it (the cluster's nodes are IPs).
  fs.writeFileSync(path.join(dir, `${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  // prettier-ignore
  await openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
  // prettier-ignore
  await openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}-ca.crt`, '-CAkey', `${ca}-ca.key`,
    '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`);
}

export async function makeTestPki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-pki-'));
  await certificateAuthority(dir, 'trusted');
  await certificateAuthority(dir, 'stranger');
  await signedCertificate(dir, 'trusted', 'server');
  await signedCertificate(dir, 'trusted', 'client');
  await signedCertificate(dir, 'stranger', 'stranger-client');
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  return {
    dir,
    caFile: path.join(dir, 'trusted-ca.crt'),
    serverCertFile: path.join(dir, 'server.crt'),
    serverKeyFile: path.join(dir, 'server.key'),
    ca: read('trusted-ca.crt'),
    clientCert: read('client.crt'),
    clientKey: read('client.key'),
    strangerCert: read('stranger-client.crt'),
    strangerKey: read('stranger-client.key'),
  };
}

/** The ACL user our processes log in as, and the passwords of the test's Redis. */
export const REDIS_ACL_USER = 'payments-app';
export const REDIS_ACL_PASSWORD = 'acl-password-for-tests-only';
export const REDIS_REQUIREPASS = 'default-user-password-for-tests-only';

/**
 * redis-server arguments: TLS on `port` and no plain port; the default user needs REDIS_REQUIREPASS;
 * REDIS_ACL_USER may do everything with REDIS_ACL_PASSWORD. `clientCertificates` is tls-auth-clients.
 */
export function securedRedisArguments(port: number, pki: TestPki, clientCertificates: 'yes' | 'optional'): string[] {
  // prettier-ignore
  return [
    '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1',
    '--tls-cert-file', pki.serverCertFile, '--tls-key-file', pki.serverKeyFile, '--tls-ca-cert-file', pki.caFile,
    '--tls-auth-clients', clientCertificates,
    '--requirepass', REDIS_REQUIREPASS,
    '--user', REDIS_ACL_USER, 'on', `>${REDIS_ACL_PASSWORD}`, '~*', '&*', '+@all',
  ];
}

/** The environment of our processes for such a Redis: the ACL user, the CA and the client certificate. */
export function securedRedisEnvironment(pki: TestPki): Record<string, string> {
  return {
    REDIS_USERNAME: REDIS_ACL_USER,
    REDIS_PASSWORD: REDIS_ACL_PASSWORD,
    REDIS_TLS_CA: pki.ca,
    REDIS_TLS_CERT: pki.clientCert,
    REDIS_TLS_KEY: pki.clientKey,
  };
}

/** PONG, or why a connection to the Redis on `port` with these options was refused. */
export async function pingRedis(port: number, options: RedisOptions = {}): Promise<string> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 2000,
    ...options,
  });
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => (lastError = error));
  try {
    await redis.connect();
    return await redis.ping();
  } catch (error) {
    // The connection's own error (NOAUTH from the ready check, a TLS alert) says more than the command's.
    return [lastError?.message, (error as Error).message].filter(Boolean).join(': ');
  } finally {
    redis.disconnect();
  }
}
