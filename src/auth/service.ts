/** Identity rules: merchants, users and merchant tokens. Knows nothing of Express. */
import { nextId } from '../db/ids';
import { isDuplicateKey } from '../db/connection';
import { ApiError } from '../http/errors';
import { hashPassword, newMerchantTokenValue, sha256Hex } from './crypto';
import { MerchantModel, MerchantTokenModel, UserModel, type Merchant, type User } from './model';

export interface NewMerchant {
  companyName: string;
  email: string;
  login: string;
  password: string;
  establishmentNumbers?: string[];
}

function duplicateUser(): ApiError {
  return new ApiError(400, { email: ['A user with this e-mail or login already exists.'] });
}

export async function createUser(input: { email: string; login: string; password: string; role: User['role']; merchantId: number | null }): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await UserModel.create({ _id: await nextId('user'), email: input.email, login: input.login, passwordHash, role: input.role, merchantId: input.merchantId });
    return user.toObject();
  } catch (error) {
    if (isDuplicateKey(error)) throw duplicateUser();
    throw error;
  }
}

/** Creates a merchant and its first user. The user is created first so a duplicate e-mail leaves no orphan merchant. */
export async function createMerchant(input: NewMerchant): Promise<{ merchant: Merchant; user: User }> {
  const merchantId = await nextId('merchant');
  const user = await createUser({ email: input.email, login: input.login, password: input.password, role: 'merchant', merchantId });
  const merchant = await MerchantModel.create({
    _id: merchantId,
    companyName: input.companyName,
    establishmentNumbers: input.establishmentNumbers ?? [],
  });
  return { merchant: merchant.toObject(), user };
}

export async function createStaffUser(input: { email: string; login: string; password: string }): Promise<User> {
  return createUser({ ...input, role: 'staff', merchantId: null });
}

/** Issues a new merchant token. The value is returned once; only its hash is stored. */
export async function issueMerchantToken(merchantId: number): Promise<{ token: string; prefix: string }> {
  if (!(await MerchantModel.exists({ _id: merchantId }))) throw new ApiError(404, { detail: `No merchant ${merchantId}.` });
  const token = newMerchantTokenValue();
  const prefix = token.slice(0, 10);
  await MerchantTokenModel.create({ _id: sha256Hex(token), merchantId, prefix });
  return { token, prefix };
}

export async function getMerchant(merchantId: number): Promise<Merchant | null> {
  return MerchantModel.findById(merchantId).lean();
}
