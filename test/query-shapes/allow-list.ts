/**
 * Service code that reads a collection without an index on purpose. Each entry names the
 * collection, the code (file) and the filter's fields as test/query-shapes records them, and why a
 * scan is right there. Keep it short: a hot path never belongs here.
 */
import { shapeOfFilter } from '../instrumentation/query-shapes';
import { SWEEP_FLAG_STEPS } from '../../src/db/migrations/0001-sweep-flags';
import { SALES_WITHOUT_TOP_LEVEL_TID } from '../../src/sales';
import { PAID_CHARGES_WITHOUT_TID } from '../../src/subscriptions/charge-tids';
import { PAID_LINKS_WITHOUT_SALE } from '../../src/payment-links/sale';
// Every model, so each collection read here is known; the migrations' changelog is no area's.
import '../../src/web/app';
import '../../src/db/migrations/changelog';
export interface AllowedScan {
  collection: string;
  from: string;
  equality: string[];
  other: string[];
  why: string;
}

export const ALLOWED_SCANS: readonly AllowedScan[] = [
  {
    collection: 'users',
    from: 'src/auth/service.ts',
    equality: [],
    other: [],
    why:
      'npm start seeds the demo merchant when no user exists at all: one findOne({}) at start-up, whose limit ' +
      'FerretDB pushes down (one row read)',
  },
  {
    collection: 'commercial_contacts',
    from: 'src/contacts/service.ts',
    equality: [],
    other: [],
    why:
      'GET /api/v1/commercial-contacts/ answers the whole list: reading every contact is the work (sorted by the ' +
      'declared nameKey index on MongoDB)',
  },
  {
    collection: 'merchants',
    from: 'src/contacts/service.ts',
    equality: [],
    other: ['_id'],
    why:
      'a contact linked to more than 50 merchants checks them with one $in read instead of hundreds of lookups ' +
      '(an index read on MongoDB)',
  },
  // Migration 0001 marks documents stored before a sweep flag existed: one read of each collection, once per database.
  ...SWEEP_FLAG_STEPS.map((step) => ({
    collection: step.collection,
    from: 'src/db/migrations/0001-sweep-flags.ts',
    ...shapeOfFilter(step.filter),
    why: `migration 0001 (the release command, run once): ${step.name}`,
  })),
  {
    collection: 'migrations',
    from: 'src/db/migrations/changelog.ts',
    equality: [],
    other: [],
    why:
      'the changelog read whole: once by each release run and once at the start of web, worker and scheduler ' +
      '(one row per migration ever released, a few dozen at most)',
  },
  // Sales and charges recorded before they carried the acquirer's TID get it once per scheduler start (issue 39).
  {
    collection: 'online_sales',
    from: 'src/sales/settled-sales.ts',
    ...shapeOfFilter(SALES_WITHOUT_TOP_LEVEL_TID),
    why: 'backfill run once at scheduler start: settled sales given their top-level acquirerTid',
  },
  {
    collection: 'payment_links',
    from: 'src/payment-links/sale.ts',
    ...shapeOfFilter(PAID_LINKS_WITHOUT_SALE),
    why: 'backfill run once at scheduler start: links paid before link sales existed given their sale',
  },
  {
    collection: 'subscription_charges',
    from: 'src/subscriptions/charge-tids.ts',
    ...shapeOfFilter(PAID_CHARGES_WITHOUT_TID),
    why: 'backfill run once at scheduler start: paid charges given the TID the acquirer answers for them',
  },
  // Establishment numbers stored with leading zeros take their one form once per scheduler start (issue 27).
  ...[
    { collection: 'merchants', filter: { establishmentNumbers: /^0\d/ } },
    { collection: 'establishment_owners', filter: { _id: /^0\d/ } },
  ].map(({ collection, filter }) => ({
    collection,
    from: 'src/merchants/establishments.ts',
    ...shapeOfFilter(filter),
    why: 'backfill run once at scheduler start: establishment numbers with leading zeros (a pattern no index serves)',
  })),
];
