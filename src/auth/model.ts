/** Merchants' users and API tokens. Passwords and tokens are stored only as hashes. */
import mongoose, { Schema } from 'mongoose';
import type { Role } from '../http/credential-policy';
import { ownerSchema, type MerchantOwner, type MerchantProfile } from '../merchants/model';

export type { Role };

export interface User {
  _id: number;
  /** Complete e-mail, stored lower-cased so uniqueness is case-insensitive. */
  email: string;
  /** Short login name, unique; shown as `username` by /api/v1/me/. */
  login: string;
  passwordHash: string;
  role: Role;
  merchantId: number | null;
  /**
   * A merchant user's copy of its merchant's profile, so the one read that checks a JWT (the user
   * must still exist) also answers /me. Written with the user and by every merchant update
   * (updateMerchant); the merchant document stays the source every decision reads. Null for staff;
   * absent on users created before it existed: then the merchant is read.
   */
  merchantProfile?: MerchantProfile | null;
  /**
   * Every JWT carries the version its user had when it was signed (claim `ver`); a token of another
   * version is refused, by the credential check and by refresh. Raised to end every session of the
   * user at once: a revocation, a password change, a deactivation (endSessions). Absent on users
   * created before it existed: version 0, as their tokens (which carry none) are.
   */
  tokenVersion?: number;
  /** Set while the user is deactivated: no login, and every token refused. */
  deactivatedAt?: Date | null;
  createdAt: Date;
}

const merchantProfileSchema = new Schema<MerchantProfile>(
  { companyName: String, allowVoidOnConfirmed: Boolean, establishmentNumbers: { type: [String], default: undefined } },
  { _id: false },
);

const userSchema = new Schema<User>(
  {
    _id: { type: Number },
    email: { type: String, required: true, lowercase: true, trim: true },
    login: { type: String, required: true, trim: true },
    passwordHash: { type: String, required: true },
    role: { type: String, enum: ['merchant', 'staff'], required: true },
    merchantId: { type: Number, default: null },
    merchantProfile: { type: merchantProfileSchema, default: null },
    tokenVersion: { type: Number, default: 0 },
    deactivatedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'users' },
);
userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ login: 1 }, { unique: true });
// A merchant's users, for /me/ with a merchant token (its first user names it).
userSchema.index({ merchantId: 1 });

export const UserModel = mongoose.model<User>('User', userSchema);

/**
 * An individual merchant token. Revoking one deletes this record (its history goes to
 * merchant_tokens_revoked): FerretDB writes an update back as the whole document, so a record that
 * other writes touch (the merchant copy below) must not carry the revocation, or such a write
 * racing a revocation could write the token back as active. A deleted record cannot come back: an
 * update of a missing _id writes nothing. Records revoked before this existed keep revokedAt here.
 */
export interface MerchantToken {
  /** SHA-256 of the token: the token itself is shown once and never stored. */
  _id: string;
  merchantId: number;
  /** First characters, so an operator can tell tokens apart without the secret. */
  prefix: string;
  createdAt: Date;
  /** Set only on records revoked before revocation deleted them; such a token is refused. */
  revokedAt: Date | null;
  /**
   * What /me shows for this token, copied from its merchant when the token is issued and by every
   * merchant update, so the one read that checks the token also answers /me. The merchant document
   * stays the source every decision reads. Absent on tokens issued before it existed: then the
   * merchant is read.
   */
  merchantProfile?: MerchantProfile | null;
  owner?: MerchantOwner | null;
}

const merchantTokenSchema = new Schema<MerchantToken>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    prefix: { type: String, required: true },
    revokedAt: { type: Date, default: null },
    merchantProfile: { type: merchantProfileSchema, default: null },
    owner: { type: ownerSchema, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false, collection: 'merchant_tokens' },
);
merchantTokenSchema.index({ merchantId: 1 });

export const MerchantTokenModel = mongoose.model<MerchantToken>('MerchantToken', merchantTokenSchema);

/** The history of a revoked token, for the token list; never read by the credential check. */
export interface RevokedMerchantToken {
  /** The same SHA-256 as the token's record had. */
  _id: string;
  merchantId: number;
  prefix: string;
  createdAt: Date;
  revokedAt: Date;
}

const revokedMerchantTokenSchema = new Schema<RevokedMerchantToken>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    prefix: { type: String, required: true },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'merchant_tokens_revoked' },
);
revokedMerchantTokenSchema.index({ merchantId: 1 });

export const RevokedMerchantTokenModel = mongoose.model<RevokedMerchantToken>(
  'RevokedMerchantToken',
  revokedMerchantTokenSchema,
);
