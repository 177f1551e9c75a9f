/**
 * The acquirer sandbox is assembled from one router per area of the acquirer's API, each in its
 * own file, so the card/PIX, recurring and chargeback simulators evolve independently.
 */
import type { Router } from 'express';
import { salesSandboxArea } from './sales';
import { chargebackSandboxArea } from './chargebacks';

export interface SandboxArea {
  name: string;
  router: () => Router;
}

export const sandboxAreas: SandboxArea[] = [salesSandboxArea, chargebackSandboxArea];
