/**
 * A throwaway public key infrastructure for tests, made with openssl in a temporary folder: a trusted CA with a
 * server certificate (for 127.0.0.1 and localhost) and client certificates, an expired client certificate, and a
 * stranger CA with a client certificate of its own that no server of a test trusts. Used by the Redis TLS tests and
 * the acquirer's mutual TLS tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  /** A CA no server of the test trusts, and a client certificate it signed. */
  strangerCert: string;
  strangerKey: string;
  /** Signed by the trusted CA, expired since yesterday. */
  expiredClientCert: string;
  expiredClientKey: string;
  clientCertFile: string;
  clientKeyFile: string;
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

async function signedCertificate(dir: string, ca: string, name: string, days = 2): Promise<void> {
  // The address is in the subject alternative names: Node checks the server by it (the cluster's nodes are IPs).
  fs.writeFileSync(path.join(dir, `${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  // prettier-ignore
  await openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
  // prettier-ignore
  await openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}-ca.crt`, '-CAkey', `${ca}-ca.key`,
    '-CAcreateserial', '-out', `${name}.crt`, '-days', String(days), '-extfile', `${name}.ext`);
}

export async function makeTestPki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-pki-'));
  await certificateAuthority(dir, 'trusted');
  await certificateAuthority(dir, 'stranger');
  await signedCertificate(dir, 'trusted', 'server');
  await signedCertificate(dir, 'trusted', 'client');
  await signedCertificate(dir, 'stranger', 'stranger-client');
  await signedCertificate(dir, 'trusted', 'expired-client', -1); // openssl 3.0 takes negative days: ends before now
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
    expiredClientCert: read('expired-client.crt'),
    expiredClientKey: read('expired-client.key'),
    clientCertFile: path.join(dir, 'client.crt'),
    clientKeyFile: path.join(dir, 'client.key'),
  };
}
