/**
 * GET /api/v1/cards/public-key/: the key callers encrypt cards with, and its kid.
 *
 * No credential, by decision: a public key is not a secret, the public checkout already hands it
 * to anyone holding a link, and a browser or a partner's build step should fetch it without one.
 * It is answered from memory (no database or Redis), so it costs nothing to ask.
 */
import type { RequestHandler } from 'express';
import { routeTable, type Feature } from '../http/routes';
import { publicKeyId, publicKeyPem } from '.';
import { cardKeyRing } from './keys';
import { CARD_ENCRYPTION, type CardPublicKeyAnswer } from './schemas';
import { definitions, docs, PUBLIC_KEY_MAX_AGE_SECONDS, tag } from './swagger';

export function describePublicKey(): CardPublicKeyAnswer {
  const { current, previous } = cardKeyRing();
  return {
    kid: publicKeyId(),
    algorithm: CARD_ENCRYPTION,
    key_size: current.modulusBits,
    public_key: publicKeyPem(),
    // Said so that a caller holding the previous key knows how long it still works.
    previous_kid: previous?.kid ?? null,
    previous_accepted_until: previous?.acceptedUntil.toISOString() ?? null,
  };
}

const handlers = {
  getCardPublicKey: (_req, res) => {
    // Any origin may read it (a partner's own payment page): it is public and sent with no credential.
    res
      .set({ 'Cache-Control': `public, max-age=${PUBLIC_KEY_MAX_AGE_SECONDS}`, 'Access-Control-Allow-Origin': '*' })
      .json(describePublicKey());
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);

export const cardsFeature: Feature = {
  name: 'cards',
  tag,
  definitions,
  routes: [route('get', '/api/v1/cards/public-key/', 'getCardPublicKey')],
};
