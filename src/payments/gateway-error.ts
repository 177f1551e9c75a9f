/**
 * What a payment operation answers when the acquirer failed it: the contract's gateway error (src/sales/schemas.ts
 * `SaleGatewayError` describes it in the Swagger document, and the response-schema check holds the two together).
 */
import { AcquirerRejectedError } from '../acquirer/client';
import type { AcquirerUnavailableError } from '../acquirer/errors';
import { ApiError } from '../platform/errors';
import type { Payment, PaymentStatus } from './model';

export type GatewayErrorBody = {
  detail: string;
  sale_id: number;
  sale_status: PaymentStatus;
  reconciling: boolean;
};

/** A gateway failure that carries the sale it left behind. */
export class SaleGatewayError extends ApiError {
  constructor(
    sale: Payment,
    readonly outcomeUnknown: boolean,
    cause?: AcquirerUnavailableError,
  ) {
    const body: GatewayErrorBody = {
      detail: outcomeUnknown
        ? 'Payment gateway error: the acquirer did not answer in time. The outcome is being confirmed with the ' +
          'acquirer; the sale is settled automatically.'
        : cause instanceof AcquirerRejectedError
          ? `Payment gateway error: the acquirer refused the request ` +
            `(${cause.errors.map((e) => `${e.Code} ${e.Message}`).join('; ') || `HTTP ${cause.httpStatus}`}). ` +
            `Nothing was done.`
          : 'Payment gateway error: the acquirer could not be reached. Nothing was done.',
      sale_id: sale._id,
      sale_status: sale.status,
      reconciling: Boolean(sale.reconciliation),
    };
    super(502, body);
  }
}
