/**
 * A complete production environment for the configuration (NODE_ENV=production): every secret given, strong and
 * distinct (this machine's generated ones, read here by the test, never by a production process), the acquirer's
 * https URLs and MerchantId, the chargeback integration off, the database of the test file (on this machine, so
 * MongoDB needs neither credentials nor TLS). Redis is left to the caller: tests of its refusals set it themselves.
 */
import { loadLocalSecrets } from '../../config/local-secrets';

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
    // Processes a test starts inherit its environment: test/helpers/env.ts raises this limit far above the range
    // production takes, and the tests' process helpers give SANDBOX_PORT, a setting production refuses.
    CHECKOUT_PAY_RATE_LIMIT: '',
    SANDBOX_PORT: '',
    ...env,
  };
}

/** A strong Redis password for production tests. */
export const STRONG_REDIS_PASSWORD = 'r3dis-Pw-9f8e7d6c5b4a3210';
