/**
 * Commercial contacts and the global CEO contact. Knows nothing of Express: routes, jobs and tests
 * call these functions: a contact's create and change bodies are checked here (the merchant ids need the store),
 * the CEO's body by the route with its declaration in schemas.ts.
 */
import mongoose from 'mongoose';
import { nextId } from '../db/ids';
import { insertDocument } from '../db/inserts';
import { retryOnDuplicateKey } from '../db/claims';
import { badRequest, notFound } from '../platform/errors';
import { MerchantModel } from '../merchants/model';
import { CommercialContactModel, GLOBAL_CEO_ID, GlobalCeoModel, type CommercialContact, type GlobalCeo } from './model';
import { checkBody, type ValueOf } from '../http/schema';
import {
  commercialContactCreate,
  commercialContactPatch,
  type CommercialContactView,
  type GlobalCeoInput,
  type GlobalCeoView,
} from './schemas';

/**
 * Ordering "as a Portuguese speaker expects" without collation (FerretDB has none).
 *
 * We store this folded key and let the database sort on (nameKey, name, _id) rather than loading
 * every contact and sorting in memory with Intl.Collator('pt-BR'):
 * - the order is the database's, so it stays the same for any reader (another process, a report,
 *   a future paginated list with a cursor) and needs no full scan into memory as the list grows;
 * - it does not depend on the ICU data a given Node build ships (small-icu builds fall back to
 *   root collation silently);
 * - Portuguese uses the Latin alphabet with diacritics that NFD splits off (á à â ã é ê í ó ô õ ú
 *   ü ç), so stripping combining marks and lower-casing gives the same primary order the pt-BR
 *   collator gives: "Álvaro" sorts with "Alvaro", before "Bruno"; "ébano" before "Eva".
 * The tiebreakers are the name as written (binary order: unaccented before accented, so "Alvaro"
 * comes before "Álvaro") and then the id, so equal names keep a stable order between reads.
 */
export function sortKeyOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The list order; the compound index on the model serves it. */
const ALPHABETICAL = { nameKey: 1, name: 1, _id: 1 } as const;

function iso(date: Date): string {
  return new Date(date).toISOString();
}

export function contactView(contact: CommercialContact): CommercialContactView {
  return {
    id: contact._id,
    name: contact.name,
    email: contact.email,
    phone: contact.phone ?? null,
    title: contact.title ?? null,
    active: contact.active,
    merchant_ids: contact.merchantIds ?? [],
    created_at: iso(contact.createdAt),
    updated_at: iso(contact.updatedAt),
  };
}

function ceoView(ceo: GlobalCeo): GlobalCeoView {
  return {
    name: ceo.name,
    email: ceo.email,
    phone: ceo.phone ?? null,
    title: ceo.title ?? null,
    created_at: iso(ceo.createdAt),
    updated_at: iso(ceo.updatedAt),
  };
}

const PER_ID_LOOKUPS_UP_TO = 50;

/**
 * The messages naming every id that is not a merchant (none when all are). Merchants are never deleted, so a check
 * before the write holds.
 */
async function unknownMerchantMessages(merchantIds: number[]): Promise<string[]> {
  if (merchantIds.length === 0) return [];
  let known: Set<number>;
  if (merchantIds.length <= PER_ID_LOOKUPS_UP_TO) {
    // One indexed lookup per id, side by side: FerretDB filters `$in` after reading the whole collection.
    const found = await Promise.all(merchantIds.map((id) => MerchantModel.exists({ _id: id })));
    known = new Set(merchantIds.filter((_, i) => found[i]));
  } else {
    // Hundreds of ids: one read of the collection costs less than hundreds of round trips (an index read on MongoDB).
    // sanitizeFilter is on: an operator we write ourselves must be marked trusted.
    known = new Set(
      (await MerchantModel.find({ _id: mongoose.trusted({ $in: merchantIds }) }, { _id: 1 }).lean()).map((m) => m._id),
    );
  }
  return merchantIds.filter((id) => !known.has(id)).map((id) => `No merchant has the id ${id}.`);
}

function uniqueIds(ids: number[]): number[] {
  return [...new Set(ids)];
}

/**
 * A create or change body checked whole: the schema's rules, then (when the list itself is good) that each
 * merchant id names a merchant, so one 400 names every bad field. `merchant_ids` comes back without repeats.
 */
async function checkContactBody<S extends typeof commercialContactCreate | typeof commercialContactPatch>(
  schema: S,
  body: unknown,
): Promise<ValueOf<S>> {
  const { value, fields } = checkBody(schema, body);
  if (value.merchant_ids !== undefined) {
    value.merchant_ids = uniqueIds(value.merchant_ids);
    const unknown = await unknownMerchantMessages(value.merchant_ids);
    if (unknown.length) fields.merchant_ids = unknown;
  }
  if (Object.keys(fields).length) throw badRequest(fields);
  return value as ValueOf<S>;
}

export async function createCommercialContact(body: unknown): Promise<CommercialContactView> {
  const input = await checkContactBody(commercialContactCreate, body);
  const contact = await insertDocument(CommercialContactModel, {
    _id: await nextId('commercial-contact'),
    name: input.name,
    nameKey: sortKeyOf(input.name),
    email: input.email,
    phone: input.phone ?? null,
    title: input.title ?? null,
    active: input.active ?? true,
    merchantIds: input.merchant_ids ?? [],
  });
  return contactView(contact);
}

/** Changes only the fields given; merchant_ids, when given, replaces the whole list of links. */
export async function updateCommercialContact(id: number, body: unknown): Promise<CommercialContactView> {
  const changes = await checkContactBody(commercialContactPatch, body);
  const set: Partial<CommercialContact> = {};
  if (changes.name !== undefined) Object.assign(set, { name: changes.name, nameKey: sortKeyOf(changes.name) });
  if (changes.email !== undefined) set.email = changes.email;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.active !== undefined) set.active = changes.active;
  if (changes.merchant_ids !== undefined) set.merchantIds = changes.merchant_ids;
  const contact = Object.keys(set).length
    ? await CommercialContactModel.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean()
    : await CommercialContactModel.findById(id).lean();
  if (!contact) throw notFound('No commercial contact has this id.');
  return contactView(contact);
}

export async function getCommercialContact(id: number): Promise<CommercialContactView> {
  const contact = await CommercialContactModel.findById(id).lean();
  if (!contact) throw notFound('No commercial contact has this id.');
  return contactView(contact);
}

export interface ContactFilter {
  active?: boolean;
}

export async function listCommercialContacts(filter: ContactFilter = {}): Promise<CommercialContactView[]> {
  const query = filter.active === undefined ? {} : { active: filter.active };
  const contacts = await CommercialContactModel.find(query).sort(ALPHABETICAL).lean();
  return contacts.map(contactView);
}

/** The contacts linked to one merchant, in the same alphabetical order; 404 when the merchant does not exist. */
export async function listMerchantCommercialContacts(
  merchantId: number,
  filter: ContactFilter = {},
): Promise<CommercialContactView[]> {
  if (!(await MerchantModel.exists({ _id: merchantId }))) throw notFound('No merchant has this id.');
  const query = { merchantIds: merchantId, ...(filter.active === undefined ? {} : { active: filter.active }) };
  const contacts = await CommercialContactModel.find(query).sort(ALPHABETICAL).lean();
  return contacts.map(contactView);
}

export async function getGlobalCeo(): Promise<GlobalCeoView | null> {
  const ceo = await GlobalCeoModel.findById(GLOBAL_CEO_ID).lean();
  return ceo ? ceoView(ceo) : null;
}

const CEO_WRITE_ATTEMPTS = 5;

/**
 * Creates or replaces the global CEO. Every PUT writes every field (an absent optional field becomes
 * null), so the stored record is always exactly one request's contact, never a blend of two.
 *
 * Exactly one record under concurrency: the record lives at the fixed _id GLOBAL_CEO_ID, and the
 * unique _id index lets only one insert of it succeed. On FerretDB two concurrent upserts can both
 * find nothing and both try to insert; the loser gets a duplicate key (11000), and by then the
 * record exists, so retrying the same upsert simply replaces it. (Upserting on any other field,
 * with no unique index behind it, does leave duplicates on FerretDB; the test proves the _id way.)
 */
export async function putGlobalCeo(input: GlobalCeoInput): Promise<GlobalCeoView> {
  const fields = { name: input.name, email: input.email, phone: input.phone ?? null, title: input.title ?? null };
  const ceo = await retryOnDuplicateKey(
    () => GlobalCeoModel.findOneAndUpdate({ _id: GLOBAL_CEO_ID }, { $set: fields }, { upsert: true, new: true }).lean(),
    CEO_WRITE_ATTEMPTS,
  );
  return ceoView(ceo!);
}
