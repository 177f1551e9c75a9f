/**
 * What a test needs to run Redis the way production should: a throwaway CA with a server and a
 * client certificate (test/helpers/pki.ts), the redis-server arguments that
 * turn on TLS only (no plain port), a password and an ACL user, and the environment that points our
 * processes at such a Redis.
 */
import Redis, { type RedisOptions } from 'ioredis';
import type { TestPki } from './pki';

export { makeTestPki, type TestPki } from './pki';

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
