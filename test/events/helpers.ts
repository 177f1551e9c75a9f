/** Shared by the events tests: a merchant's endpoint at the test receiver, deliveries verified by standardwebhooks. */
import { Webhook } from 'standardwebhooks';
import { bearer, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import type { Receiver, Received } from '../webhooks/receiver';

export async function createEndpoint(
  app: { url: string },
  merchant: TestMerchant,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; body: any; status: number }> {
  const res = await callJson(app, 'POST', '/api/v1/webhook-endpoints/', bearer(merchant.merchantToken), body);
  return { id: res.body.id, secret: res.body.secret, body: res.body, status: res.status };
}

/** Every delivery the receiver got at `path`, each verified with the endpoint's secret (throws if one is not). */
export function verifiedAt(receiver: Receiver, path: string, secret: string): any[] {
  return receiver.at(path).map((r: Received) => new Webhook(secret).verify(r.body, r.headers));
}

/** Waits until the receiver got `count` deliveries at `path` whose event type is `type`. */
export async function untilReceived(receiver: Receiver, path: string, secret: string, type: string, count = 1) {
  return eventually(
    () => {
      const events = verifiedAt(receiver, path, secret).filter((e) => e.type === type);
      return events.length >= count && events;
    },
    30_000,
    50,
  ) as Promise<any[]>;
}
