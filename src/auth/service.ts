/** Identity rules: merchants, users, merchant tokens, login and refresh. Knows nothing of Express. */
import { nextId } from '../db/ids';
import { insertDocument } from '../db/inserts';
import { createOnce, insertOnce } from '../db/claims';
import { badRequest, notFound, type FieldErrors } from '../platform/errors';
import { hashPassword, newMerchantTokenValue, UNMATCHABLE_PASSWORD_HASH, verifyPassword } from './crypto';
import { sha256Hex } from '../platform/digests';
import { MerchantTokenModel, RevokedMerchantTokenModel, UserModel, type MerchantToken, type User } from './model';
import { MerchantModel, type Merchant, type MerchantOwner, type MerchantProfile } from '../merchants/model';
import type { AccessTokenAnswer, Profile, TokenPair } from './schemas';
import { isCurrentSession, signToken, verifyToken } from './tokens';
import { claimEstablishments, normaliseStoredEstablishments, releaseEstablishments } from '../merchants/establishments';
import {
  changeMerchant,
  checkEstablishmentNumbers,
  getMerchant,
  normalisedEstablishments,
  profileOf,
  type MerchantChanges,
} from '../merchants/service';

export { getMerchant, type MerchantChanges };

export interface NewMerchant {
  companyName: string;
  email: string;
  login: string;
  password: string;
  establishmentNumbers?: string[];
}

/** Long enough for any passphrase, short enough that hashing a huge body costs nothing. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
/** A short login name never contains '@', so it can never be mistaken for an e-mail at login. */
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9_.-]{1,49}$/;

/** FerretDB reports a duplicate key without naming the index, so look which field is taken. */
async function duplicateUser(input: { email: string }) {
  const emailTaken = await UserModel.exists({ email: input.email.trim().toLowerCase() });
  return emailTaken
    ? badRequest({ email: ['A user with this e-mail already exists.'] })
    : badRequest({ login: ['A user with this login already exists.'] });
}

function checkUserInput(input: { email: string; login: string; password: string }): FieldErrors {
  const fields: FieldErrors = {};
  if (typeof input.email !== 'string' || input.email.length > 254 || !EMAIL.test(input.email.trim()))
    fields.email = ['Enter a valid e-mail address.'];
  if (typeof input.login !== 'string' || !LOGIN.test(input.login.trim())) {
    fields.login = ['Enter 2 to 50 letters, digits, dots, dashes or underscores, starting with a letter or digit.'];
  }
  return { ...fields, ...checkPassword(input.password) };
}

function checkPassword(password: unknown): FieldErrors {
  if (typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH)
    return {};
  return { password: [`The password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`] };
}

export async function createUser(input: {
  email: string;
  login: string;
  password: string;
  role: User['role'];
  merchantId: number | null;
  merchantProfile?: MerchantProfile | null;
}): Promise<User> {
  const problems = checkUserInput(input);
  if (Object.keys(problems).length) throw badRequest(problems);
  const passwordHash = await hashPassword(input.password);
  const user = await createOnce(UserModel, {
    _id: await nextId('user'),
    email: input.email,
    login: input.login,
    passwordHash,
    role: input.role,
    merchantId: input.merchantId,
    merchantProfile: input.merchantProfile ?? null,
  });
  if (!user) throw await duplicateUser(input);
  return user;
}

/** Creates a merchant and its first user. The user is created first so a duplicate e-mail leaves no orphan merchant. */
export async function createMerchant(input: NewMerchant): Promise<{ merchant: Merchant; user: User }> {
  const problems = { ...checkUserInput(input), ...checkEstablishmentNumbers(input.establishmentNumbers) };
  if (typeof input.companyName !== 'string' || !input.companyName.trim() || input.companyName.length > 200)
    problems.company_name = ['Enter the company name (at most 200 characters).'];
  if (Object.keys(problems).length) throw badRequest(problems);
  const merchantId = await nextId('merchant');
  const profile = {
    companyName: input.companyName.trim(),
    settings: { allowVoidOnConfirmed: false },
    establishmentNumbers: normalisedEstablishments(input.establishmentNumbers),
  };
  const { email, login, password } = input;
  // An establishment belongs to one merchant: claimed first, freed again if the merchant is not created.
  await claimEstablishments(merchantId, profile.establishmentNumbers);
  try {
    const user = await createUser({
      email,
      login,
      password,
      role: 'merchant',
      merchantId,
      merchantProfile: profileOf(profile),
    });
    const merchant = await insertDocument(MerchantModel, {
      _id: merchantId,
      ...profile,
      owner: { userId: user._id, login: user.login, email: user.email },
    });
    return { merchant, user };
  } catch (error) {
    await releaseEstablishments(merchantId, profile.establishmentNumbers).catch(() => undefined);
    throw error;
  }
}

export async function createStaffUser(input: { email: string; login: string; password: string }): Promise<User> {
  return createUser({ ...input, role: 'staff', merchantId: null });
}

/** Issues a new merchant token. The value is returned once; only its hash is stored, with the copy /me answers from. */
export async function issueMerchantToken(merchantId: number): Promise<{ token: string; prefix: string }> {
  const merchant = await MerchantModel.findById(merchantId).lean();
  if (!merchant) throw notFound(`No merchant ${merchantId}.`);
  const token = newMerchantTokenValue();
  const prefix = token.slice(0, 10);
  await insertDocument(MerchantTokenModel, {
    _id: sha256Hex(token),
    merchantId,
    prefix,
    merchantProfile: profileOf(merchant),
    owner: await ownerOf(merchant),
  });
  return { token, prefix };
}

/** A new merchant, its owner and a first merchant token (the value, returned this once). */
export async function createMerchantWithToken(
  input: NewMerchant,
): Promise<{ merchant: Merchant; user: User; token: string }> {
  const { merchant, user } = await createMerchant(input);
  const { token } = await issueMerchantToken(merchant._id);
  return { merchant, user, token };
}

export async function listMerchantTokens(
  merchantId: number,
): Promise<{ prefix: string; createdAt: Date; revokedAt: Date | null }[]> {
  const [live, revoked] = await Promise.all([
    MerchantTokenModel.find({ merchantId }).lean(),
    RevokedMerchantTokenModel.find({ merchantId }).lean(),
  ]);
  // A revocation that died between its two writes leaves a token in both: it is still live.
  const liveIds = new Set(live.map((t) => t._id));
  return [...live, ...revoked.filter((t) => !liveIds.has(t._id))]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((t) => ({ prefix: t.prefix, createdAt: t.createdAt, revokedAt: t.revokedAt ?? null }));
}

/**
 * Revokes a merchant's tokens: the ones whose shown prefix matches, or all of them. Scoped to one
 * merchant so a prefix can never reach another merchant's token. Returns how many were revoked now.
 *
 * Each token's history is written first, then its record deleted: from that delete on the token is
 * refused, and no other write can bring the record back (see MerchantToken). Should the delete not
 * happen, the call fails and the token stays live until it is revoked again.
 */
export async function revokeMerchantTokens(
  merchantId: number,
  which: { prefix: string } | { all: true },
): Promise<number> {
  if (!(await MerchantModel.exists({ _id: merchantId }))) throw notFound(`No merchant ${merchantId}.`);
  const filter: Record<string, unknown> = { merchantId };
  if ('prefix' in which) {
    if (typeof which.prefix !== 'string' || which.prefix.length < 6)
      throw badRequest({ prefix: ['Give the token prefix as shown when it was issued (at least 6 characters).'] });
    filter.prefix = which.prefix;
  }
  const live = (await MerchantTokenModel.find(filter).lean()).filter((t) => !t.revokedAt);
  const revokedAt = new Date();
  let revoked = 0;
  for (const token of live) {
    // 'exists': an earlier revocation of it stopped before its delete.
    await insertOnce(RevokedMerchantTokenModel, {
      _id: token._id,
      merchantId,
      prefix: token.prefix,
      createdAt: token.createdAt,
      revokedAt,
    });
    revoked += (await MerchantTokenModel.deleteOne({ _id: token._id })).deletedCount;
  }
  return revoked;
}

/** Changes a merchant, then the copies its users and tokens keep of it. */
export async function updateMerchant(merchantId: number, changes: MerchantChanges): Promise<Merchant> {
  const saved = await changeMerchant(merchantId, changes);
  await copyMerchantProfile(saved);
  return saved;
}

/**
 * The copies of a merchant's users and its tokens follow its record (see User.merchantProfile).
 * Should these writes fail, /me shows the old profile until the next update; nothing decides by a
 * copy. A revoked token has no record left, so the token write cannot race a revocation (see
 * MerchantToken).
 */
async function copyMerchantProfile(merchant: Merchant): Promise<void> {
  const merchantProfile = profileOf(merchant);
  await UserModel.updateMany({ merchantId: merchant._id }, { $set: { merchantProfile } });
  await MerchantTokenModel.updateMany({ merchantId: merchant._id }, { $set: { merchantProfile } });
}

/**
 * The scheduler's one-time backfill of establishment numbers stored with leading zeros
 * (normaliseStoredEstablishments), with the copies of the merchants it changed. Idempotent.
 */
export async function normaliseEstablishmentNumbers(): Promise<number[]> {
  const changed = await normaliseStoredEstablishments();
  for (const merchantId of changed) {
    const merchant = await MerchantModel.findById(merchantId).lean();
    if (merchant) await copyMerchantProfile(merchant);
  }
  return changed;
}

/**
 * The user a login names, or null. Only the complete e-mail is a username (case-insensitive); a
 * short login name never matches. An unknown user costs the same scrypt as a wrong password, so
 * the answer time does not tell which accounts exist.
 */
export async function authenticateUser(username: unknown, password: unknown): Promise<User | null> {
  if (typeof username !== 'string' || typeof password !== 'string') return null;
  if (!username || username.length > 254 || !password || password.length > MAX_PASSWORD_LENGTH) return null;
  const user = await UserModel.findOne({ email: username.trim().toLowerCase() }).lean();
  const matches = await verifyPassword(password, user?.passwordHash ?? UNMATCHABLE_PASSWORD_HASH);
  return user && matches && !user.deactivatedAt ? user : null;
}

export async function obtainTokenPair(username: unknown, password: unknown): Promise<TokenPair | null> {
  const user = await authenticateUser(username, password);
  if (!user) return null;
  return { access: signToken('access', user), refresh: signToken('refresh', user) };
}

/**
 * A new access token for a valid refresh token, or null. The refresh token is not rotated: it
 * stays valid until it expires or its user's sessions are ended (endSessions). The user must still
 * exist, and the new token carries its current role.
 */
export async function refreshAccessToken(refresh: unknown): Promise<AccessTokenAnswer | null> {
  if (typeof refresh !== 'string' || !refresh || refresh.length > 4096) return null;
  const claims = verifyToken(refresh, 'refresh');
  const userId = Number(claims?.sub);
  if (!claims || !Number.isSafeInteger(userId)) return null;
  const user = await UserModel.findById(userId).lean();
  if (!user || !isCurrentSession(claims, user)) return null;
  return { access: signToken('access', user) };
}

/** A user by id or complete e-mail (case-insensitive), as an operator names one. */
async function userNamed(idOrEmail: number | string): Promise<User> {
  const user =
    typeof idOrEmail === 'number'
      ? await UserModel.findById(idOrEmail).lean()
      : await UserModel.findOne({ email: idOrEmail.trim().toLowerCase() }).lean();
  if (!user) throw notFound(`No user ${idOrEmail}.`);
  return user;
}

/** What ending a user's sessions tells the operator. */
export interface EndedSessions {
  userId: number;
  email: string;
  tokenVersion: number;
  deactivated: boolean;
}

/**
 * Ends every session of a user at once, with `changes` in the same write: the user's token version
 * goes up, so every access and refresh token signed before is refused from the next request on, in
 * every web process (each reads the user on every request and compares the version; see
 * User.tokenVersion). A new login works at once (unless the user is deactivated).
 */
async function endSessions(idOrEmail: number | string, changes: Partial<User> = {}): Promise<EndedSessions> {
  const user = await userNamed(idOrEmail);
  const ended = await UserModel.findOneAndUpdate(
    { _id: user._id },
    { $set: changes, $inc: { tokenVersion: 1 } },
    { new: true },
  ).lean();
  if (!ended) throw notFound(`No user ${idOrEmail}.`);
  const { _id, email, tokenVersion, deactivatedAt } = ended;
  return { userId: _id, email, tokenVersion: tokenVersion ?? 0, deactivated: Boolean(deactivatedAt) };
}

/** Ends a user's sessions: every token signed so far is refused; the password stays. */
export function revokeSessions(idOrEmail: number | string): Promise<EndedSessions> {
  return endSessions(idOrEmail);
}

/** Sets a user's password and ends its sessions: nobody keeps a session opened with the old one. */
export async function changePassword(idOrEmail: number | string, password: string): Promise<EndedSessions> {
  const problems = checkPassword(password);
  if (Object.keys(problems).length) throw badRequest(problems);
  return endSessions(idOrEmail, { passwordHash: await hashPassword(password) });
}

/** Deactivates a user (no login, every token refused) or activates it again (a new login then works). */
export function setUserActive(idOrEmail: number | string, active: boolean): Promise<EndedSessions> {
  return endSessions(idOrEmail, { deactivatedAt: active ? null : new Date() });
}

/** A user as the credential check reads it: everything but the password hash. */
export type UserRecord = Omit<User, 'passwordHash'>;

/** What a credential stands for, as the auth layer identified it, with the records it already read. */
export interface CredentialIdentity {
  kind: 'jwt' | 'merchantToken' | 'system';
  userId?: number;
  merchantId?: number;
  /** The JWT's user, read by the credential check: not read again. */
  user?: UserRecord | null;
  /** The merchant the system token names, read by the credential check: not read again. */
  merchant?: Merchant | null;
  /** The merchant token's record, read by the credential check: not read again. */
  token?: MerchantToken | null;
}

const merchantGone = () => notFound('The merchant of this credential no longer exists.');

/** The merchant's first user: the copy on the merchant, or (merchants created before it existed) a read. */
async function ownerOf(merchant: Merchant): Promise<MerchantOwner | null> {
  if (merchant.owner) return merchant.owner;
  const first = await UserModel.findOne({ merchantId: merchant._id, role: 'merchant' }).sort({ _id: 1 }).lean();
  return first ? { userId: first._id, login: first.login, email: first.email } : null;
}

function profileAnswer(
  credential: Profile['credential'],
  role: Profile['role'],
  person: { login: string; email: string } | null,
  merchant: { id: number; profile: MerchantProfile } | null,
): Profile {
  return {
    id: merchant?.id ?? null,
    company_name: merchant?.profile.companyName ?? null,
    username: person?.login ?? null,
    email: person?.email ?? null,
    role,
    credential,
    allow_void_on_confirmed: merchant ? merchant.profile.allowVoidOnConfirmed : null,
    establishment_numbers: merchant?.profile.establishmentNumbers ?? null,
  };
}

/**
 * The merchant bound to a credential, with the short login name as `username`: the user's own for
 * a JWT; the merchant's first user for a merchant token or the system token naming a merchant.
 * Staff and the system token without a merchant get their own identity with the merchant fields null.
 *
 * Built from what the credential check read: a JWT's user and a merchant token's record carry
 * their merchant's profile, a merchant and a token carry the first user's names, so no credential
 * costs a read here (records written before those copies existed cost the reads they miss).
 */
export async function describeIdentity(identity: CredentialIdentity): Promise<Profile> {
  if (identity.kind === 'jwt') {
    let user = identity.user;
    if (user === undefined)
      user =
        identity.userId !== undefined
          ? await UserModel.findById(identity.userId, { passwordHash: 0 }).lean<UserRecord>()
          : null;
    const merchantId = user?.merchantId ?? identity.merchantId;
    if (merchantId === undefined || merchantId === null) return profileAnswer('jwt', user?.role ?? 'staff', user, null);
    let profile = user?.merchantProfile;
    if (!profile) {
      const merchant = await getMerchant(merchantId);
      if (!merchant) throw merchantGone();
      profile = profileOf(merchant);
    }
    return profileAnswer('jwt', user?.role ?? 'merchant', user, { id: merchantId, profile });
  }
  const credential = identity.kind === 'merchantToken' ? 'merchant_token' : 'system';
  const role = identity.kind === 'system' ? 'system' : 'merchant';
  if (identity.merchantId === undefined) return profileAnswer(credential, role, null, null);
  const token = identity.token;
  if (token?.merchantProfile && token.owner !== undefined && token.merchantId === identity.merchantId) {
    return profileAnswer(credential, role, token.owner, { id: token.merchantId, profile: token.merchantProfile });
  }
  const merchant = identity.merchant ?? (await getMerchant(identity.merchantId));
  if (!merchant) throw merchantGone();
  return profileAnswer(credential, role, await ownerOf(merchant), { id: merchant._id, profile: profileOf(merchant) });
}

/** True when no user exists yet: the demo seed runs only then. */
export async function noUsersYet(): Promise<boolean> {
  return !(await UserModel.exists({}));
}
