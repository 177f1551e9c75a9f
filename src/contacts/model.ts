/** Commercial contacts (the platform's commercial managers) and the one global CEO contact. */
import mongoose, { Schema } from 'mongoose';

export interface CommercialContact {
  _id: number;
  name: string;
  /**
   * `name` folded for ordering: NFD, diacritics stripped, lower case, spaces collapsed. FerretDB has
   * no collation, so the database sorts on this key (see sortKeyOf in service.ts).
   */
  nameKey: string;
  email: string;
  /** E.164, e.g. +5511987654321; null when not given. */
  phone: string | null;
  title: string | null;
  active: boolean;
  merchantIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

const commercialContactSchema = new Schema<CommercialContact>(
  {
    _id: { type: Number },
    name: { type: String, required: true },
    // not `required`: a name made only of combining marks folds to '' (mongoose refuses '' for required strings)
    nameKey: { type: String, default: '' },
    email: { type: String, required: true },
    phone: { type: String, default: null },
    title: { type: String, default: null },
    active: { type: Boolean, default: true },
    merchantIds: { type: [Number], default: [] },
  },
  { timestamps: true, versionKey: false, collection: 'commercial_contacts' },
);
// The list order: folded name, then the name as written, then the id, so equal names never swap places between reads.
commercialContactSchema.index({ nameKey: 1, name: 1, _id: 1 });
// The list of active (or inactive) contacts, in the same order.
commercialContactSchema.index({ active: 1, nameKey: 1, name: 1, _id: 1 });
// A merchant's contacts are read back by this multikey index.
commercialContactSchema.index({ merchantIds: 1 });

export const CommercialContactModel = mongoose.model<CommercialContact>('CommercialContact', commercialContactSchema);

/** The fixed _id of the single global CEO document: its unique _id index is what keeps it single. */
export const GLOBAL_CEO_ID = 'global-ceo';

export interface GlobalCeo {
  _id: typeof GLOBAL_CEO_ID;
  name: string;
  email: string;
  phone: string | null;
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const globalCeoSchema = new Schema<GlobalCeo>(
  {
    _id: { type: String },
    name: { type: String, required: true },
    email: { type: String, required: true },
    phone: { type: String, default: null },
    title: { type: String, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'global_ceo' },
);

export const GlobalCeoModel = mongoose.model<GlobalCeo>('GlobalCeo', globalCeoSchema);
