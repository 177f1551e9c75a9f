/**
 * A merchant's customers: create, read, change, delete. Knows nothing of Express (routes, jobs and tests call these).
 * Every read is by the customer's id and then checked against the merchant: another merchant's customer is "not
 * found", never "forbidden", so an id tells nobody that it exists.
 */
import crypto from 'node:crypto';
import { insertDocument } from '../db/inserts';
import { notFound } from '../platform/errors';
import { CustomerModel, type Customer } from './model';
import type { CustomerAnswer, CustomerChanges, CustomerInput } from './schemas';

const CUSTOMER_ID = /^cus_[0-9a-f]{24}$/;

export const NO_SUCH_CUSTOMER = 'No customer of this merchant has this id.';

export function presentCustomer(customer: Customer): CustomerAnswer {
  return {
    id: customer._id,
    name: customer.name,
    email: customer.email ?? null,
    document: customer.document ?? null,
    document_type: customer.documentType ?? null,
    phone: customer.phone ?? null,
    metadata: customer.metadata ?? {},
    created_at: new Date(customer.createdAt).toISOString(),
    updated_at: new Date(customer.updatedAt).toISOString(),
  };
}

const documentTypeOf = (document: string | null | undefined): Customer['documentType'] =>
  document ? (document.length === 11 ? 'CPF' : 'CNPJ') : null;

/** The merchant's customer `id`, or a 404 (an id that cannot be one, another merchant's, a deleted one). */
export async function findCustomer(merchantId: number, id: string): Promise<Customer> {
  const found = CUSTOMER_ID.test(id) ? await CustomerModel.findById(id).lean<Customer>() : null;
  if (!found || found.merchantId !== merchantId) throw notFound(NO_SUCH_CUSTOMER);
  return found;
}

/** Whether the customer still exists (a card saved while it was being deleted must not outlive it). */
export async function customerExists(id: string): Promise<boolean> {
  return Boolean(await CustomerModel.exists({ _id: id }));
}

/** A body validated by its declaration (customerCreate): values trimmed, the document without punctuation. */
export async function createCustomer(merchantId: number, input: CustomerInput): Promise<CustomerAnswer> {
  const stored = await insertDocument(CustomerModel, {
    _id: `cus_${crypto.randomBytes(12).toString('hex')}`,
    merchantId,
    name: input.name,
    email: input.email ?? null,
    document: input.document ?? null,
    documentType: documentTypeOf(input.document),
    phone: input.phone ?? null,
    metadata: input.metadata ?? {},
  });
  return presentCustomer(stored);
}

/** Sets the fields sent (customerPatch): an absent one keeps its value, null clears it, metadata is replaced whole. */
export async function updateCustomer(
  merchantId: number,
  id: string,
  changes: CustomerChanges,
): Promise<CustomerAnswer> {
  const current = await findCustomer(merchantId, id);
  const set: Partial<Customer> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.email !== undefined) set.email = changes.email;
  if (changes.document !== undefined) {
    set.document = changes.document;
    set.documentType = documentTypeOf(changes.document);
  }
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.metadata !== undefined) set.metadata = changes.metadata;
  if (!Object.keys(set).length) return presentCustomer(current);
  const updatedAt = new Date();
  // Our own updatedAt (mongoose would stamp another one), so the answer shows what is stored.
  const result = await CustomerModel.updateOne(
    { _id: current._id },
    { $set: { ...set, updatedAt } },
    { timestamps: false },
  );
  if (result.matchedCount !== 1) throw notFound(NO_SUCH_CUSTOMER); // deleted meanwhile
  return presentCustomer({ ...current, ...set, updatedAt });
}

/** Whether the merchant has any customer (merchant:delete keeps a merchant with business records). */
export async function merchantHasCustomers(merchantId: number): Promise<boolean> {
  return Boolean(await CustomerModel.exists({ merchantId }));
}
