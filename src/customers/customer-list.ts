/**
 * A merchant's customers, newest first, paged by an opaque cursor as the events API pages (src/events/reads.ts): the
 * cursor names the last customer of a page by its creation time and id. Searches are equalities on the stored forms
 * (the e-mail lower-cased, the document without punctuation), the only conditions FerretDB sends to an index; the
 * page's order and the cursor's range are applied by FerretDB to the merchant's (or the search's) documents.
 */
import mongoose from 'mongoose';
import { badRequest } from '../platform/errors';
import { presentCustomer } from './customers';
import { CustomerModel, type Customer } from './model';
import { LIMITS, type CustomerListAnswer, type CustomerListQuery } from './schemas';

function encodeCursor(customer: Pick<Customer, '_id' | 'createdAt'>): string {
  return Buffer.from(`${new Date(customer.createdAt).getTime()}|${customer._id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [ms, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(Number(ms));
  if (rest.length || !/^cus_[0-9a-f]{24}$/.test(id ?? '') || !/^\d+$/.test(ms ?? '') || Number.isNaN(at.getTime()))
    throw badRequest({ cursor: ['Not a cursor.'] });
  return { at, id };
}

const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;

export async function listCustomers(merchantId: number, query: CustomerListQuery): Promise<CustomerListAnswer> {
  const limit = query.limit ?? LIMITS.defaultPage;
  const filter: Record<string, unknown> = { merchantId };
  if (query.email !== undefined) filter.email = query.email;
  if (query.document !== undefined) filter.document = query.document;
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    filter.$or = [{ createdAt: trusted({ $lt: after.at }) }, { createdAt: after.at, _id: trusted({ $lt: after.id }) }];
  }
  const customers = await CustomerModel.find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit + 1)
    .lean<Customer[]>();
  const page = customers.slice(0, limit);
  return {
    results: page.map(presentCustomer),
    next_cursor: customers.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}
