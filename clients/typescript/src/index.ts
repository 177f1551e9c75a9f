/** @payments-platform/client: the typed client of the payments platform API. */
import { ApiError } from './transport';
import type { OperationErrors } from './generated-types';

export { PaymentsClient, HttpTransport, jwtExpiry, type ClientOptions } from './client';
export {
  ApiError,
  ApiGroup,
  type CallInput,
  type OperationSpec,
  type RequestOptions,
  type ResponseKind,
  type Transport,
} from './transport';
export {
  CardsApi,
  CardEncryption,
  encryptCardWithKey,
  CARD_KEY_MAX_AGE_MS,
  type Card,
  type EncryptedCard,
} from './cards';
export * from './generated-types';
export {
  verifyWebhook,
  WebhookVerificationError,
  type ChargebackEventData,
  type EventDataByType,
  type PaymentLinkEventData,
  type VerifyOptions,
  type AccountEventType,
  type AccountWebhookEvent,
  type AccountWebhookEventOf,
} from './webhooks';
export * from './generated-operations';

/**
 * Narrows an error to the documented answer of one operation: after
 * isApiError(error, 'preCaptureSale', 400), error.body is the FieldErrors map. Without a status, any
 * ApiError of that operation.
 */
export function isApiError<Id extends keyof OperationErrors, Status extends keyof OperationErrors[Id] & number>(
  error: unknown,
  operationId: Id,
  status?: Status,
): error is ApiError<OperationErrors[Id][Status]> & { operationId: Id; status: Status } {
  return (
    error instanceof ApiError && error.operationId === operationId && (status === undefined || error.status === status)
  );
}
