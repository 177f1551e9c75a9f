/**
 * Reads of one document on the hot paths (every authenticated request's credential, the checkout
 * page's link), sent straight through the driver.
 *
 * Why: the read is the same command either way, but building it through a mongoose Query (casting,
 * schema analysis, option merging, the lean wrapper) cost more CPU per request than the driver's
 * own work. Measured on GET /api/v1/me/ against the bench's bare route, alternating 2 s rounds after
 * 20-60 s of warm-up: the web process's CPU per request fell from 1.79x to 1.49x the bare route's
 * (docs/benchmarks.md, "Against the goals of issue 12").
 *
 * What is given up, and why it is safe here: no casting, no sanitizeFilter or strictQuery, no
 * schema setters (trim, lowercase) on the filter's values. The filter type takes scalar values only
 * (a string, a number, a boolean) and any other value is refused at run time, so no caller can pass
 * an operator object; each caller passes values of the schema's own types that no setter changes
 * (an integer `_id`, a hash, a guid). A field with a setter (a user's e-mail, lowercased) is not for
 * this read. No query middleware runs (the schemas define none for reads). The document comes back
 * as stored, as `.lean()` gives it.
 */
import type { Model } from 'mongoose';

/** Top-level equalities on scalar values: what FerretDB pushes down to its indexes (docs/store.md). */
export type ScalarFilter = Record<string, string | number | boolean>;

/** 1 to include a field, 0 to leave it out (not both kinds in one projection, but `_id: 0` with inclusions). */
export type Projection = Record<string, 0 | 1>;

/**
 * The one document of `model`'s collection matching `filter` (top-level equalities on scalars), as
 * stored, or null; `T` is the shape read (the schema's type, or less under a projection).
 */
export async function readOne<T>(
  model: Pick<Model<unknown>, 'collection'>,
  filter: ScalarFilter,
  projection?: Projection,
): Promise<T | null> {
  for (const [field, value] of Object.entries(filter)) {
    // The type already says so; a value from outside TypeScript's reach (a parsed body) is refused too.
    const kind = typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean')
      throw new TypeError(`readOne: the filter's ${field} must be a scalar value`);
  }
  return (await model.collection.findOne(filter, projection ? { projection } : {})) as T | null;
}
