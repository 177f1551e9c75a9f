/** A merchant: its company, settings and the acquirer establishments it owns. */
import mongoose, { Schema } from 'mongoose';

/** The user created with a merchant, as /api/v1/me/ names it for a merchant token or the system token. */
export interface MerchantOwner {
  userId: number;
  login: string;
  email: string;
}

export interface Merchant {
  _id: number;
  companyName: string;
  settings: { allowVoidOnConfirmed: boolean };
  /** Acquirer establishment numbers (EC) of this merchant; chargeback calls are scoped to them. */
  establishmentNumbers: string[];
  /**
   * A copy of the first user's names, written once with the merchant (a user's login and e-mail never
   * change), so /me with a merchant token or the system token needs no user read. Absent on merchants
   * created before it existed: then the first user is read.
   */
  owner?: MerchantOwner | null;
  createdAt: Date;
  updatedAt: Date;
}

export const ownerSchema = new Schema<MerchantOwner>({ userId: Number, login: String, email: String }, { _id: false });

const merchantSchema = new Schema<Merchant>(
  {
    _id: { type: Number },
    companyName: { type: String, required: true, maxlength: 200 },
    settings: { allowVoidOnConfirmed: { type: Boolean, default: false } },
    establishmentNumbers: { type: [String], default: [] },
    owner: { type: ownerSchema, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'merchants' },
);
merchantSchema.index({ establishmentNumbers: 1 });

export const MerchantModel = mongoose.model<Merchant>('Merchant', merchantSchema);

/** What /api/v1/me/ shows of a merchant. */
export interface MerchantProfile {
  companyName: string;
  allowVoidOnConfirmed: boolean;
  establishmentNumbers: string[];
}
