/**
 * The one place that builds the TLS settings of our connections to the acquirer: the CA trusted for each API
 * (ACQUIRER_CA, ACQUIRER_CHARGEBACK_CA; the system's when empty) and the client certificate of the chargeback API's
 * mutual TLS (ACQUIRER_CHARGEBACK_CLIENT_CERT / _KEY). The keys never reach a log: only a certificate's subject,
 * issuer, serial and validity do, to say which certificate an expired or refused handshake was about.
 */
import crypto from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';

export type AcquirerApi = 'card' | 'chargeback';

/** What tls.connect adds to its defaults for calls to this API (the server is always verified). */
export function acquirerTlsOptions(api: AcquirerApi): ConnectionOptions {
  const { tls } = getConfig().acquirer;
  if (api === 'card') return tls.ca ? { ca: tls.ca } : {};
  const { ca, cert, key } = tls.chargeback;
  return { ...(ca ? { ca } : {}), ...(cert && key ? { cert, key } : {}) };
}

/** A certificate as a log line may name it: subject, issuer, serial and validity, never a key. */
export function describeCertificate(pem: string): string {
  const certificate = new crypto.X509Certificate(pem);
  const oneLine = (name: string) => name.split('\n').join(', ');
  return (
    `subject ${oneLine(certificate.subject)}, issuer ${oneLine(certificate.issuer)}, ` +
    `serial ${certificate.serialNumber}, ` +
    `valid ${new Date(certificate.validFrom).toISOString()} to ${new Date(certificate.validTo).toISOString()}`
  );
}

/** Why the client certificate cannot be accepted today (expired, not yet valid), or undefined. */
export function certificateValidityProblem(pem: string, now = new Date()): string | undefined {
  const certificate = new crypto.X509Certificate(pem);
  if (now > new Date(certificate.validTo)) return 'expired';
  if (now < new Date(certificate.validFrom)) return 'not valid yet';
  return undefined;
}

/**
 * Called when the chargeback client opens its connection pool (the first call): an expired or not yet valid client
 * certificate is logged as an error naming it, since the acquirer will refuse every handshake.
 */
export function checkChargebackClientCertificate(now = new Date()): void {
  const { cert } = getConfig().acquirer.tls.chargeback;
  if (!cert) return;
  const problem = certificateValidityProblem(cert, now);
  if (problem)
    logger.error(
      { certificate: describeCertificate(cert) },
      `ACQUIRER_CHARGEBACK_CLIENT_CERT is ${problem}: the acquirer's chargeback API will refuse it ` +
        `(${describeCertificate(cert)})`,
    );
}

/** The TLS failures of a handshake: ours refusing the server, or the server refusing (or closing on) us. */
const SERVER_NOT_TRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e && codes.length < 5; e = e.cause as never)
    if (typeof e.code === 'string') codes.push(e.code);
  return codes;
}

/**
 * After a failed call to an acquirer API: a TLS failure is logged naming what to look at. The server's certificate
 * not trusted names the CA variable; a connection the chargeback API closed or refused while we present a client
 * certificate names that certificate (the acquirer did not accept it: signed by another CA, expired, revoked).
 */
export function explainTlsFailure(api: AcquirerApi, url: string, error: unknown): void {
  if (!url.startsWith('https:')) return;
  const codes = codesOf(error);
  const serverCode = codes.find((code) => SERVER_NOT_TRUSTED.has(code));
  if (serverCode) {
    const variable = api === 'card' ? 'ACQUIRER_CA' : 'ACQUIRER_CHARGEBACK_CA';
    logger.error(
      { code: serverCode },
      `the acquirer's ${api} API certificate is not trusted (${serverCode}): check ${variable}`,
    );
    return;
  }
  if (api !== 'chargeback') return;
  const { cert } = getConfig().acquirer.tls.chargeback;
  const refused = codes.some((code) => /^ERR_SSL_|^UND_ERR_SOCKET$|^ECONNRESET$|^EPIPE$/.test(code));
  if (!refused) return;
  logger.error(
    { codes },
    cert
      ? `the acquirer's chargeback API refused or closed the connection (${codes.join(', ')}) with our client ` +
          `certificate ACQUIRER_CHARGEBACK_CLIENT_CERT (${describeCertificate(cert)}): check it is the one the ` +
          'acquirer signed, and still valid'
      : `the acquirer's chargeback API refused or closed the connection (${codes.join(', ')}) and no client ` +
          'certificate is configured: it requires mutual TLS (set ACQUIRER_CHARGEBACK_CLIENT_CERT and _KEY)',
  );
}
