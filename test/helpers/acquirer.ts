/** The acquirer as a test sees it from our side: its configured address. */
import { getConfig } from '../../config';
import { freePort } from './processes';

/** Runs `fn` with the acquirer's base URL on a port nothing listens on (every call refused), then puts it back. */
export async function withAcquirerRefusing<T>(fn: () => Promise<T>): Promise<T> {
  const config = getConfig().acquirer;
  const original = config.baseUrl;
  config.baseUrl = `http://127.0.0.1:${await freePort()}`;
  try {
    return await fn();
  } finally {
    config.baseUrl = original;
  }
}

/** Points this process's chargeback API client (its loaded config) at the sandbox process at `sandboxUrl`. */
export function useChargebackApiOf(sandboxUrl: string): void {
  const variables = pointAtSandbox(sandboxUrl);
  Object.assign(getConfig().acquirer.chargeback, {
    baseUrl: variables.ACQUIRER_CHARGEBACK_BASE_URL,
    authUrl: variables.ACQUIRER_CHARGEBACK_AUTH_URL,
  });
}

/** The chargeback API's variables for a sandbox process at `sandboxUrl`. */
export function pointAtSandbox(sandboxUrl: string): Record<string, string> {
  return {
    ACQUIRER_CHARGEBACK_BASE_URL: `${sandboxUrl}/sandbox-cb/chargeback/v1`,
    ACQUIRER_CHARGEBACK_AUTH_URL: `${sandboxUrl}/oauth/v2/sandbox/protocol/openid-connect/token`,
  };
}
