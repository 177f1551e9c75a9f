/**
 * A complete production environment for the configuration (NODE_ENV=production): every secret given, strong and
 * distinct (this machine's generated ones, read here by the test, never by a production process), the acquirer's
 * https URLs and MerchantId, the chargeback integration and 3-D Secure off, the database of the test file (on this
 * machine, so MongoDB needs neither credentials nor TLS). Redis is left to the caller: tests of its refusals set it
 * themselves.
 */
import { loadLocalSecrets } from '../../config/local-secrets';
import type { TestPki } from './pki';

export function productionEnvironment(env: Record<string, string> = {}): Record<string, string> {
  return {
    ...loadLocalSecrets(),
    NODE_ENV: 'production',
    PUBLIC_BASE_URL: 'https://pagamentos.loja.com.br',
    MONGODB_URI: process.env.MONGODB_URI!,
    ACQUIRER_BASE_URL: 'https://api.acquirer.invalid',
    ACQUIRER_QUERY_URL: 'https://apiquery.acquirer.invalid',
    ACQUIRER_MERCHANT_ID: '0b7c6a1e-5d4f-4c3b-9a2e-1f0e9d8c7b6a',
    ACQUIRER_CHARGEBACK_CLIENT_ID: '',
    // 3-D Secure off: this machine's generated ClientSecret would turn it on without its service's address.
    ACQUIRER_3DS_CLIENT_SECRET: '',
    // Processes a test starts inherit its environment: test/helpers/env.ts raises this limit far above the range
    // production takes, and the tests' process helpers give SANDBOX_PORT, a setting production refuses.
    CHECKOUT_PAY_RATE_LIMIT: '',
    SANDBOX_PORT: '',
    ...env,
  };
}

/** A strong Redis password for production tests. */
export const STRONG_REDIS_PASSWORD = 'r3dis-Pw-9f8e7d6c5b4a3210';

/** The chargeback integration on, every part of it given: its client certificate and key the test CA's (P-256). */
export function chargebackIntegration(pki: TestPki): Record<string, string> {
  return {
    ACQUIRER_CHARGEBACK_CLIENT_ID: 'loja-123',
    ACQUIRER_CHARGEBACK_CLIENT_SECRET: 'f7Kq2Lx9Vb3Nw8Rt5Yz1',
    ACQUIRER_CHARGEBACK_BASE_URL: 'https://api.acquirer.invalid/cb/chargeback/v1',
    ACQUIRER_CHARGEBACK_AUTH_URL: 'https://auth.acquirer.invalid/oauth/v2/loja/protocol/openid-connect/token',
    ACQUIRER_CHARGEBACK_CLIENT_CERT: pki.clientCertFile,
    ACQUIRER_CHARGEBACK_CLIENT_KEY: pki.clientKeyFile,
  };
}
