/** Every area of the API, in the order its routes are registered and described. */
import type { Feature } from './http/routes';
import { healthFeature } from './health/routes';
import { docsFeature } from './http/docs-routes';

export const features: Feature[] = [
  healthFeature,
  docsFeature,
];
