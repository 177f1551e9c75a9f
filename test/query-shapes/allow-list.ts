/**
 * Service code that reads a collection without an index on purpose. Each entry names the
 * collection, the code (file) and the filter's fields as test/query-shapes records them, and why a
 * scan is right there. Keep it short: a hot path never belongs here.
 */
export interface AllowedScan {
  collection: string;
  from: string;
  equality: string[];
  other: string[];
  why: string;
}

export const ALLOWED_SCANS: readonly AllowedScan[] = [];
