/**
 * Filter pieces for FerretDB 1.24 on PostgreSQL (docs/store.md).
 */
import mongoose from 'mongoose';

/**
 * Matches `value` as an equality would, but FerretDB checks it after reading the document instead
 * of sending it to PostgreSQL. For a filter that names its document by `_id` (or another selective
 * field): every pushed-down equality on an indexed field is an index PostgreSQL's planner may
 * intersect, and without statistics it does, reading that field's index whole: `{_id, status:
 * 'active', nextDueDate}` cost 875 ms at 100,000 subscriptions, `{_id, status}` on sales ~2 ms more
 * at 20,000, growing with the collection, where `_id` alone reads one entry. On MongoDB `$in` of
 * one value is the same equality.
 */
export function checkedAfterLookup<T>(value: T): { $in: T[] } {
  return mongoose.trusted({ $in: [value] }) as { $in: T[] };
}
