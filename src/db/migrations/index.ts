/**
 * Every migration, in the order they run (src/db/migrations/migration.ts says what one must be). Append only: a
 * released migration keeps its name and its place, since the `migrations` changelog knows it by name.
 */
import type { Migration } from './migration';
import { sweepFlags } from './0001-sweep-flags';

export const MIGRATIONS: readonly Migration[] = [sweepFlags];
