/**
 * Chargeback rules, knowing nothing of Express: scoping proxy calls to the caller's establishments
 * and the refusal document rules (proxy.ts), notice intake and application (notices.ts), the
 * projection of a chargeback from its events (projection.ts), and the pending / history views
 * (views.ts). This module is their one entry point for routes, jobs and the scheduler.
 */
export { establishmentsOfMerchant, type BufferedAnswer, type EstablishmentScope } from './common';
export * from './proxy';
export * from './notices';
export * from './views';
