/**
 * The acquirer sandbox is assembled (server.ts) from one router per area of the acquirer's API, each
 * in its own file, so the card/PIX, recurring and chargeback simulators evolve independently.
 */
import type { Router } from 'express';

export interface SandboxArea {
  name: string;
  router: () => Router;
}
