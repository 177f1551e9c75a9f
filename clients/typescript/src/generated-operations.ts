/**
 * GENERATED from the Swagger document (version 1.0) by clients/typescript/scripts/generate.ts
 * (npm run client:generate). Do not edit: regenerate.
 */
/* eslint-disable */
import { ApiGroup, type OperationSpec, type RequestOptions, type Transport } from './transport';
import type {
  Liveness,
  Readiness,
  ChargebackConsultFilter,
  ChargebackPage,
  AcceptRequest,
  AcceptReply,
  RefuseRequest,
  RefuseReply,
  PendingChargebacks,
  PendingCount,
  ChargebackHistory,
  NoticeReceipt,
  SubscriptionCreate,
  SubscriptionCycleValue,
  SubscriptionEnvelope,
  SubscriptionChargeList,
  SubscriptionChargeEnvelope,
  TokenRequest,
  TokenPair,
  RefreshRequest,
  AccessToken,
  Me,
  CommercialContact,
  CommercialContactCreate,
  CommercialContactPatch,
  GlobalCeo,
  GlobalCeoPut,
  PreCaptureRequest,
  OnlineSaleResponse,
  PixStatusResponse,
  PaymentNotice,
  CaptureRequest,
  RefundRequest,
  RefundResponse,
  RefundListResponse,
  ChargeRefundRequest,
  CardPublicKey,
  CustomerCreate,
  CustomerPatch,
  Customer,
  CustomerList,
  CustomerCardSave,
  CustomerCard,
  CustomerCardList,
  PaymentLinkCreate,
  PaymentLink,
  CheckoutLink,
  CheckoutPayer,
  CheckoutAddress,
  CheckoutPay,
  CheckoutPayResult,
  CheckoutInstallments,
  CheckoutPix,
  MandateCheckout,
  WebhookSecret,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  AccountEvent,
  AccountEventList,
  GetSwaggerResponse,
  ConsultChargebacksQuery,
  GetChargebackLifecycleResponse,
  ListIssuerDocumentsResponse,
  GetSupportDocumentResponse,
  ListHandledChargebacksQuery,
  ReceiveChargebackNotificationBody,
  ReceiveChargebackNotificationOptions,
  ListCommercialContactsQuery,
  ListCommercialContactsResponse,
  ListMerchantCommercialContactsQuery,
  ListMerchantCommercialContactsResponse,
  GetGlobalCeoResponse,
  PreCaptureSaleOptions,
  ReceivePaymentNotificationOptions,
  ReceivePaymentNotificationResponse,
  CreateRefundOptions,
  RefundSubscriptionChargeOptions,
  ListCustomersQuery,
  CreatePaymentLinkOptions,
  ListLinkWebhookEventsResponse,
  RedeliverWebhookEventResponse,
  ListWebhookEndpointsResponse,
  ListWebhookEndpointDeliveriesResponse,
  RedeliverWebhookEndpointDeliveryResponse,
  ListEventsQuery,
} from './generated-types';

/** Every operation, by operationId: what the transport sends. */
export const operations = {
  getLiveness: { operationId: 'getLiveness', method: 'GET', path: '/healthz', auth: false, response: 'json' },
  getReadiness: { operationId: 'getReadiness', method: 'GET', path: '/readyz', auth: false, response: 'json' },
  getSwagger: {
    operationId: 'getSwagger',
    method: 'GET',
    path: '/api/docs/swagger.json',
    auth: false,
    response: 'json',
  },
  consultChargebacks: {
    operationId: 'consultChargebacks',
    method: 'POST',
    path: '/api/v1/acquirer/chargeback/consult/',
    auth: true,
    response: 'json',
  },
  acceptChargebacks: {
    operationId: 'acceptChargebacks',
    method: 'PUT',
    path: '/api/v1/acquirer/chargeback/accept/',
    auth: true,
    response: 'json',
  },
  refuseChargeback: {
    operationId: 'refuseChargeback',
    method: 'PUT',
    path: '/api/v1/acquirer/chargeback/refuse/',
    auth: true,
    response: 'json',
  },
  getChargebackLifecycle: {
    operationId: 'getChargebackLifecycle',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/lifecycle/{idCase}/',
    auth: true,
    response: 'json',
  },
  listIssuerDocuments: {
    operationId: 'listIssuerDocuments',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/list-issuer-documents/{establishmentNumber}/{idChargeback}/',
    auth: true,
    response: 'json',
  },
  downloadIssuerDocument: {
    operationId: 'downloadIssuerDocument',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/document-issuer/{establishmentNumber}/{idDocumento}/',
    auth: true,
    response: 'binary',
  },
  getSupportDocument: {
    operationId: 'getSupportDocument',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/support-document/{establishmentNumber}/{idChargeback}/',
    auth: true,
    response: 'json',
  },
  listPendingChargebacks: {
    operationId: 'listPendingChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/contested/',
    auth: true,
    response: 'json',
  },
  listHandledChargebacks: {
    operationId: 'listHandledChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/contested/history/',
    auth: true,
    response: 'json',
  },
  countPendingChargebacks: {
    operationId: 'countPendingChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/pending-count/',
    auth: true,
    response: 'json',
  },
  receiveChargebackNotification: {
    operationId: 'receiveChargebackNotification',
    method: 'POST',
    path: '/api/v1/acquirer/chargeback/notifications/',
    auth: false,
    response: 'json',
  },
  createSubscription: {
    operationId: 'createSubscription',
    method: 'POST',
    path: '/api/v1/subscriptions/',
    auth: true,
    response: 'json',
  },
  getSubscription: {
    operationId: 'getSubscription',
    method: 'GET',
    path: '/api/v1/subscriptions/{id}/',
    auth: true,
    response: 'json',
  },
  cancelSubscription: {
    operationId: 'cancelSubscription',
    method: 'PUT',
    path: '/api/v1/subscriptions/{id}/cancel/',
    auth: true,
    response: 'json',
  },
  setSubscriptionCycleValue: {
    operationId: 'setSubscriptionCycleValue',
    method: 'PUT',
    path: '/api/v1/subscriptions/{id}/cycle-values/',
    auth: true,
    response: 'json',
  },
  listSubscriptionCharges: {
    operationId: 'listSubscriptionCharges',
    method: 'GET',
    path: '/api/v1/subscriptions/{id}/charges/',
    auth: true,
    response: 'json',
  },
  createToken: { operationId: 'createToken', method: 'POST', path: '/api/token/', auth: false, response: 'json' },
  refreshToken: {
    operationId: 'refreshToken',
    method: 'POST',
    path: '/api/token/refresh/',
    auth: false,
    response: 'json',
  },
  getMe: { operationId: 'getMe', method: 'GET', path: '/api/v1/me/', auth: true, response: 'json' },
  listCommercialContacts: {
    operationId: 'listCommercialContacts',
    method: 'GET',
    path: '/api/v1/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  createCommercialContact: {
    operationId: 'createCommercialContact',
    method: 'POST',
    path: '/api/v1/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  updateCommercialContact: {
    operationId: 'updateCommercialContact',
    method: 'PATCH',
    path: '/api/v1/commercial-contacts/{pk}/',
    auth: true,
    response: 'json',
  },
  listMerchantCommercialContacts: {
    operationId: 'listMerchantCommercialContacts',
    method: 'GET',
    path: '/api/v1/merchants/{id}/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  getGlobalCeo: {
    operationId: 'getGlobalCeo',
    method: 'GET',
    path: '/api/v1/global-ceo/',
    auth: true,
    response: 'json',
  },
  putGlobalCeo: {
    operationId: 'putGlobalCeo',
    method: 'PUT',
    path: '/api/v1/global-ceo/',
    auth: true,
    response: 'json',
  },
  getMetrics: { operationId: 'getMetrics', method: 'GET', path: '/metrics', auth: false, response: 'text' },
  preCaptureSale: {
    operationId: 'preCaptureSale',
    method: 'POST',
    path: '/api/v1/online/sales/pre-capture/',
    auth: true,
    response: 'json',
  },
  captureSale: {
    operationId: 'captureSale',
    method: 'PUT',
    path: '/api/v1/online/sales/{id}/capture/',
    auth: true,
    response: 'json',
  },
  getSale: { operationId: 'getSale', method: 'GET', path: '/api/v1/online/sales/{id}/', auth: true, response: 'json' },
  getPixStatus: {
    operationId: 'getPixStatus',
    method: 'GET',
    path: '/api/v1/online/sales/{id}/pix/status/',
    auth: true,
    response: 'json',
  },
  receivePaymentNotification: {
    operationId: 'receivePaymentNotification',
    method: 'POST',
    path: '/api/v1/online/sales/notifications/',
    auth: false,
    response: 'json',
  },
  createRefund: {
    operationId: 'createRefund',
    method: 'POST',
    path: '/api/v1/online/sales/{id}/refunds/',
    auth: true,
    response: 'json',
  },
  listSaleRefunds: {
    operationId: 'listSaleRefunds',
    method: 'GET',
    path: '/api/v1/online/sales/{id}/refunds/',
    auth: true,
    response: 'json',
  },
  getRefund: { operationId: 'getRefund', method: 'GET', path: '/api/v1/refunds/{id}/', auth: true, response: 'json' },
  refundSubscriptionCharge: {
    operationId: 'refundSubscriptionCharge',
    method: 'PUT',
    path: '/api/v1/subscriptions/{id}/charges/{chargeId}/refund/',
    auth: true,
    response: 'json',
  },
  cancelSale: {
    operationId: 'cancelSale',
    method: 'PUT',
    path: '/api/v1/online/sales/{id}/cancel-capture/',
    auth: true,
    response: 'json',
  },
  getCardPublicKey: {
    operationId: 'getCardPublicKey',
    method: 'GET',
    path: '/api/v1/cards/public-key/',
    auth: false,
    response: 'json',
  },
  createCustomer: {
    operationId: 'createCustomer',
    method: 'POST',
    path: '/api/v1/customers/',
    auth: true,
    response: 'json',
  },
  listCustomers: {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/api/v1/customers/',
    auth: true,
    response: 'json',
  },
  getCustomer: {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/api/v1/customers/{id}/',
    auth: true,
    response: 'json',
  },
  updateCustomer: {
    operationId: 'updateCustomer',
    method: 'PATCH',
    path: '/api/v1/customers/{id}/',
    auth: true,
    response: 'json',
  },
  deleteCustomer: {
    operationId: 'deleteCustomer',
    method: 'DELETE',
    path: '/api/v1/customers/{id}/',
    auth: true,
    response: 'json',
  },
  saveCustomerCard: {
    operationId: 'saveCustomerCard',
    method: 'POST',
    path: '/api/v1/customers/{id}/cards/',
    auth: true,
    response: 'json',
  },
  listCustomerCards: {
    operationId: 'listCustomerCards',
    method: 'GET',
    path: '/api/v1/customers/{id}/cards/',
    auth: true,
    response: 'json',
  },
  getCustomerCard: {
    operationId: 'getCustomerCard',
    method: 'GET',
    path: '/api/v1/customers/{id}/cards/{card_id}/',
    auth: true,
    response: 'json',
  },
  deleteCustomerCard: {
    operationId: 'deleteCustomerCard',
    method: 'DELETE',
    path: '/api/v1/customers/{id}/cards/{card_id}/',
    auth: true,
    response: 'json',
  },
  createPaymentLink: {
    operationId: 'createPaymentLink',
    method: 'POST',
    path: '/api/v1/payment-links/',
    auth: true,
    response: 'json',
  },
  getPaymentLink: {
    operationId: 'getPaymentLink',
    method: 'GET',
    path: '/api/v1/payment-links/{id}/',
    auth: true,
    response: 'json',
  },
  listLinkWebhookEvents: {
    operationId: 'listLinkWebhookEvents',
    method: 'GET',
    path: '/api/v1/payment-links/{id}/webhooks/',
    auth: true,
    response: 'json',
  },
  redeliverWebhookEvent: {
    operationId: 'redeliverWebhookEvent',
    method: 'POST',
    path: '/api/v1/payment-links/{id}/webhooks/{eventId}/redeliver/',
    auth: true,
    response: 'json',
  },
  loadCheckout: {
    operationId: 'loadCheckout',
    method: 'GET',
    path: '/api/v1/checkout-links/{guid}',
    auth: false,
    response: 'json',
  },
  setCheckoutPayer: {
    operationId: 'setCheckoutPayer',
    method: 'PATCH',
    path: '/api/v1/checkout-links/{guid}/payer',
    auth: false,
    response: 'json',
  },
  setCheckoutAddress: {
    operationId: 'setCheckoutAddress',
    method: 'PATCH',
    path: '/api/v1/checkout-links/{guid}/address',
    auth: false,
    response: 'json',
  },
  getCheckoutInstallments: {
    operationId: 'getCheckoutInstallments',
    method: 'GET',
    path: '/api/v1/checkout-links/{guid}/installments',
    auth: false,
    response: 'json',
  },
  payCheckout: {
    operationId: 'payCheckout',
    method: 'PUT',
    path: '/api/v1/checkout-links/{guid}/pay',
    auth: false,
    response: 'json',
  },
  startCheckoutPix: {
    operationId: 'startCheckoutPix',
    method: 'POST',
    path: '/api/v1/checkout-links/{guid}/pix',
    auth: false,
    response: 'json',
  },
  getCheckoutPix: {
    operationId: 'getCheckoutPix',
    method: 'GET',
    path: '/api/v1/checkout-links/{guid}/pix',
    auth: false,
    response: 'json',
  },
  loadMandateCheckout: {
    operationId: 'loadMandateCheckout',
    method: 'GET',
    path: '/api/v1/checkout-mandates/{token}',
    auth: false,
    response: 'json',
  },
  getMandateCheckoutPage: {
    operationId: 'getMandateCheckoutPage',
    method: 'GET',
    path: '/checkout/pix-automatico/{token}',
    auth: false,
    response: 'text',
  },
  getCheckoutPage: {
    operationId: 'getCheckoutPage',
    method: 'GET',
    path: '/checkout/{guid}',
    auth: false,
    response: 'text',
  },
  getCheckoutAsset: {
    operationId: 'getCheckoutAsset',
    method: 'GET',
    path: '/checkout/assets/{file}',
    auth: false,
    response: 'text',
  },
  getWebhookSecret: {
    operationId: 'getWebhookSecret',
    method: 'GET',
    path: '/api/v1/webhooks/secret/',
    auth: true,
    response: 'json',
  },
  rotateWebhookSecret: {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/v1/webhooks/secret/rotate/',
    auth: true,
    response: 'json',
  },
  createWebhookEndpoint: {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/api/v1/webhook-endpoints/',
    auth: true,
    response: 'json',
  },
  listWebhookEndpoints: {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/api/v1/webhook-endpoints/',
    auth: true,
    response: 'json',
  },
  getWebhookEndpoint: {
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/api/v1/webhook-endpoints/{id}/',
    auth: true,
    response: 'json',
  },
  updateWebhookEndpoint: {
    operationId: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/api/v1/webhook-endpoints/{id}/',
    auth: true,
    response: 'json',
  },
  deleteWebhookEndpoint: {
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/api/v1/webhook-endpoints/{id}/',
    auth: true,
    response: 'json',
  },
  rotateWebhookEndpointSecret: {
    operationId: 'rotateWebhookEndpointSecret',
    method: 'POST',
    path: '/api/v1/webhook-endpoints/{id}/rotate-secret/',
    auth: true,
    response: 'json',
  },
  listWebhookEndpointDeliveries: {
    operationId: 'listWebhookEndpointDeliveries',
    method: 'GET',
    path: '/api/v1/webhook-endpoints/{id}/deliveries/',
    auth: true,
    response: 'json',
  },
  redeliverWebhookEndpointDelivery: {
    operationId: 'redeliverWebhookEndpointDelivery',
    method: 'POST',
    path: '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver/',
    auth: true,
    response: 'json',
  },
  listEvents: { operationId: 'listEvents', method: 'GET', path: '/api/v1/events/', auth: true, response: 'json' },
  getEvent: { operationId: 'getEvent', method: 'GET', path: '/api/v1/events/{id}/', auth: true, response: 'json' },
} satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof operations;

/**
 * Process liveness and readiness probes
 *
 * Tag "health" of the document.
 */
export class HealthApi extends ApiGroup {
  /**
   * Process is alive
   *
   * Public: no credential.
   *
   * GET /healthz
   */
  getLiveness(options?: RequestOptions): Promise<Liveness> {
    return this.transport.call<Liveness>(operations.getLiveness, {}, options);
  }

  /**
   * MongoDB and Redis answer
   *
   * Public: no credential.
   *
   * GET /readyz
   */
  getReadiness(options?: RequestOptions): Promise<Readiness> {
    return this.transport.call<Readiness>(operations.getReadiness, {}, options);
  }
}

/**
 * This API description
 *
 * Tag "docs" of the document.
 */
export class DocsApi extends ApiGroup {
  /**
   * Swagger 2.0 description of this API (version 1.0)
   *
   * Public: no credential.
   *
   * GET /api/docs/swagger.json
   */
  getSwagger(options?: RequestOptions): Promise<GetSwaggerResponse> {
    return this.transport.call<GetSwaggerResponse>(operations.getSwagger, {}, options);
  }
}

/**
 * The acquirer's chargeback operations proxied for merchants (its status and body pass through as
 * received), the intake of its chargeback notifications, and the pending, pending-count and history
 * views built from them.
 *
 * Tag "chargebacks" of the document.
 */
export class ChargebacksApi extends ApiGroup {
  /**
   * Consult chargebacks at the acquirer
   *
   * Query status PENDING (awaiting treatment) or DONE (handled). The JSON filter body is forwarded with
   * its documented fields only (any other key is a 400).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/acquirer/chargeback/consult/
   */
  consultChargebacks(
    body: ChargebackConsultFilter | undefined,
    query: ConsultChargebacksQuery,
    options?: RequestOptions,
  ): Promise<ChargebackPage> {
    return this.transport.call<ChargebackPage>(operations.consultChargebacks, { body, query }, options);
  }

  /**
   * Accept chargebacks
   *
   * Accepting treats the sale as invalid and agrees to the reversal. On an acquirer 2xx the accepted
   * chargebacks leave the pending list at once. The reversal returns the money of our sale the
   * chargeback names (by TID): before the acquirer is asked, the acceptance takes that sale's captured
   * value under the refunds' admission slots, so no refund of it can return the money again (a later
   * refund is 422); while a refund of the sale is pending, or once one was made, the acceptance is 409
   * and nothing is asked (docs/api/refunds.md).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/acquirer/chargeback/accept/
   */
  acceptChargebacks(body: AcceptRequest, options?: RequestOptions): Promise<AcceptReply> {
    return this.transport.call<AcceptReply>(operations.acceptChargebacks, { body }, options);
  }

  /**
   * Refuse a chargeback with evidence
   *
   * Refusing defends the sale with an evidence document. Checked here before the acquirer is called,
   * each a 400 naming the rule: the content is TIFF, PDF or JPEG (by its first bytes) and the extension
   * of fileName agrees; at most 8 MB decoded; at most 10 pages; the document name equals IdCase, the
   * extension NOT being part of the name (fileName = IdCase + "." + extension, e.g. 5000123.pdf). On an
   * acquirer 2xx the chargeback leaves the pending list at once.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/acquirer/chargeback/refuse/
   */
  refuseChargeback(body: RefuseRequest, options?: RequestOptions): Promise<RefuseReply> {
    return this.transport.call<RefuseReply>(operations.refuseChargeback, { body }, options);
  }

  /**
   * Lifecycle of a chargeback case
   *
   * A merchant may read only a case of one of its establishments: one we hold a chargeback of, received
   * by notice, and whose steps the acquirer names for that establishment (403 otherwise, whatever case a
   * refusal named). The system token reads any. The payload has the fields of the lifecycle
   * notification, ActionCicleDate included.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/lifecycle/{idCase}/
   *
   * @param idCase Case id
   */
  getChargebackLifecycle(idCase: string | number, options?: RequestOptions): Promise<GetChargebackLifecycleResponse> {
    return this.transport.call<GetChargebackLifecycleResponse>(
      operations.getChargebackLifecycle,
      { pathParams: { idCase } },
      options,
    );
  }

  /**
   * List the issuer documents of a chargeback (step 1 of 2)
   *
   * Step 1 of the document flow: list, then download each with GET
   * document-issuer/{establishmentNumber}/{idDocumento}/ using idDocumento from this list.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/list-issuer-documents/{establishmentNumber}/{idChargeback}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idChargeback Chargeback id
   */
  listIssuerDocuments(
    establishmentNumber: string | number,
    idChargeback: string | number,
    options?: RequestOptions,
  ): Promise<ListIssuerDocumentsResponse> {
    return this.transport.call<ListIssuerDocumentsResponse>(
      operations.listIssuerDocuments,
      { pathParams: { establishmentNumber, idChargeback } },
      options,
    );
  }

  /**
   * Download an issuer document (step 2 of 2)
   *
   * Step 2 of the document flow: idDocumento comes from GET list-issuer-documents/. The raw bytes are
   * streamed as received with the acquirer's Content-Type and Content-Disposition (never converted to
   * JSON).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/document-issuer/{establishmentNumber}/{idDocumento}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idDocumento Document id from the listing
   */
  downloadIssuerDocument(
    establishmentNumber: string | number,
    idDocumento: string | number,
    options?: RequestOptions,
  ): Promise<Uint8Array> {
    return this.transport.call<Uint8Array>(
      operations.downloadIssuerDocument,
      { pathParams: { establishmentNumber, idDocumento } },
      options,
    );
  }

  /**
   * The defense document attached on refusal
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/support-document/{establishmentNumber}/{idChargeback}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idChargeback Chargeback id
   */
  getSupportDocument(
    establishmentNumber: string | number,
    idChargeback: string | number,
    options?: RequestOptions,
  ): Promise<GetSupportDocumentResponse> {
    return this.transport.call<GetSupportDocumentResponse>(
      operations.getSupportDocument,
      { pathParams: { establishmentNumber, idChargeback } },
      options,
    );
  }

  /**
   * Pending chargebacks
   *
   * Chargebacks received by notice and not yet accepted or refused, nearest treatmentDeadline first. A
   * merchant sees its own establishments'; the system token sees all, or one merchant's with
   * X-Merchant-Id.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/contested/
   */
  listPendingChargebacks(options?: RequestOptions): Promise<PendingChargebacks> {
    return this.transport.call<PendingChargebacks>(operations.listPendingChargebacks, {}, options);
  }

  /**
   * Handled chargebacks
   *
   * One item per chargeback: accepted ones, and refused ones once they have a final outcome (win or
   * loss). Most recent outcome first.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/contested/history/
   */
  listHandledChargebacks(query?: ListHandledChargebacksQuery, options?: RequestOptions): Promise<ChargebackHistory> {
    return this.transport.call<ChargebackHistory>(operations.listHandledChargebacks, { query }, options);
  }

  /**
   * Number of pending chargebacks
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/pending-count/
   */
  countPendingChargebacks(options?: RequestOptions): Promise<PendingCount> {
    return this.transport.call<PendingCount>(operations.countPendingChargebacks, {}, options);
  }

  /**
   * Intake of the acquirer's chargeback notifications
   *
   * Called by the acquirer, not by merchants. Authenticated by the shared secret
   * CHARGEBACK_NOTIFICATION_SECRET in the x-notification-secret header. Body: a new chargeback (one
   * consult item, unwrapped) or a lifecycle change {establishmentNumber, caseId, message, executionDate,
   * ActionCicleDate}. The secret is checked before the body is read; a body is at most 64 KB. The notice
   * is stored durably before the 202; the same notice twice is stored once; a worker applies it. A
   * lifecycle step is a hint: it is applied only once the acquirer's own lifecycle of the case shows it
   * for that establishment (asked again for up to two days).
   *
   * Public: no credential.
   *
   * POST /api/v1/acquirer/chargeback/notifications/
   */
  receiveChargebackNotification(
    body: ReceiveChargebackNotificationBody,
    options: ReceiveChargebackNotificationOptions,
  ): Promise<NoticeReceipt> {
    return this.transport.call<NoticeReceipt>(
      operations.receiveChargebackNotification,
      { body, headers: { 'x-notification-secret': options?.notificationSecret } },
      options,
    );
  }
}

/**
 * Recurring charges: subscriptions on a card (charged on each due date, retried on a schedule) or on
 * Pix Automático (the payer's mandate, authorised once in the bank app), their charges and refunds
 *
 * Tag "subscriptions" of the document.
 */
export class SubscriptionsApi extends ApiGroup {
  /**
   * Create a subscription
   *
   * The card is tokenized at the acquirer at once (502 when the acquirer cannot be reached). The
   * scheduler creates a charge on each due date (UTC day) and sends it to the acquirer. When
   * firstDueDate is today (UTC), the first charge is created and queued with the subscription: it is
   * listed at once, status 0 PENDING until the acquirer answers, with no wait for the next scheduler
   * tick. With paymentMethod pix_automatico no card is sent: the recurrence is made at the acquirer (502
   * when it cannot be reached) and the answer's mandate (status CREATED) carries the QR code the payer
   * authorises in the bank app; no charge is sent until the acquirer confirms the approval (journey 3:
   * the approval pays the first charge). docs/api/pix-automatico.md
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * POST /api/v1/subscriptions/
   */
  createSubscription(body: SubscriptionCreate, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.createSubscription, { body }, options);
  }

  /**
   * Read a subscription
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * GET /api/v1/subscriptions/{id}/
   *
   * @param id Subscription id
   */
  getSubscription(id: string | number, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.getSubscription, { pathParams: { id } }, options);
  }

  /**
   * Cancel a subscription
   *
   * No new charge is created and no retry is scheduled (every charge's nextRetryAt becomes null).
   * Cancelling a cancelled subscription returns it unchanged. Pix Automático: a mandate still CREATED or
   * APPROVED is cancelled at the acquirer first (502, and nothing changed, when it cannot be reached);
   * the answer shows it CANCELLED by the merchant once the acquirer confirmed it.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * PUT /api/v1/subscriptions/{id}/cancel/
   *
   * @param id Subscription id
   */
  cancelSubscription(id: string | number, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.cancelSubscription, { pathParams: { id } }, options);
  }

  /**
   * Set a coming cycle's amount (Pix Automático, variable amounts)
   *
   * Not in the contract. A Pix Automático subscription whose mandate has variable amounts (maximumValue)
   * charges each cycle value unless the cycle's own amount is set here, before its send window opens (10
   * days before its due date: 409 from then on, the charge is being sent with the amount it had). The
   * amount stays between the mandate's minimumValue and maximumValue (400 naming value). Setting it
   * again replaces it. The answer shows it in cycleValues. docs/api/pix-automatico.md
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * PUT /api/v1/subscriptions/{id}/cycle-values/
   *
   * @param id Subscription id
   */
  setSubscriptionCycleValue(
    id: string | number,
    body: SubscriptionCycleValue,
    options?: RequestOptions,
  ): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(
      operations.setSubscriptionCycleValue,
      { pathParams: { id }, body },
      options,
    );
  }

  /**
   * List the charges of a subscription
   *
   * Every charge, oldest due date first, with the fields of the spec's Subscription charge table.
   * Another merchant's subscription or an unknown id: 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * GET /api/v1/subscriptions/{id}/charges/
   *
   * @param id Subscription id
   */
  listSubscriptionCharges(id: string | number, options?: RequestOptions): Promise<SubscriptionChargeList> {
    return this.transport.call<SubscriptionChargeList>(
      operations.listSubscriptionCharges,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * Refund part or all of a confirmed charge
   *
   * No body (as the contract): refunds all that is left and moves the charge from 1 CONFIRMED to 3
   * REFUNDED (its paymentTransactionId is kept); on a charge already REFUNDED it returns it unchanged,
   * so concurrent or repeated calls refund once. A body {"value": cents} refunds part of it, as many
   * times as wanted up to the charge: the charge stays 1 CONFIRMED, with refunded_value, until all of it
   * is back, then 3 REFUNDED. The charge's refunds are the refunds of its card sale (recorded at the
   * first refund), sent to the acquirer one at a time 5 s apart and settled against its VoidedAmount:
   * 200 when the acquirer settled this one at once, 202 (header Location: the refund, getRefund) while
   * it waits its turn. See docs/api/refunds.md.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * PUT /api/v1/subscriptions/{id}/charges/{chargeId}/refund/
   *
   * @param id Subscription id
   *
   * @param chargeId Charge id
   */
  refundSubscriptionCharge(
    id: string | number,
    chargeId: string | number,
    body?: ChargeRefundRequest,
    options?: RefundSubscriptionChargeOptions,
  ): Promise<SubscriptionChargeEnvelope> {
    return this.transport.call<SubscriptionChargeEnvelope>(
      operations.refundSubscriptionCharge,
      { pathParams: { id, chargeId }, body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }
}

/**
 * Token pair, refresh and the identity bound to a credential
 *
 * Tag "auth" of the document.
 */
export class AuthApi extends ApiGroup {
  /**
   * Obtain an access and refresh token pair
   *
   * username is the complete e-mail (case-insensitive), never the short login name. Any failure (unknown
   * e-mail, wrong password, login name as username, missing or non-string fields) is 401 with the same
   * body, and an unknown e-mail takes as long as a wrong password. Access tokens live 900 s
   * (JWT_ACCESS_TTL_SECONDS, default 900 = 15 min); refresh tokens 604800 s (JWT_REFRESH_TTL_SECONDS,
   * default 604800 = 7 days). Both are HS256 JWTs. Rate limited per client IP: 10 requests per 60 s
   * window, started by the first request (TOKEN_RATE_LIMIT, TOKEN_RATE_WINDOW_SECONDS), counted
   * separately for token and refresh and shared by every web process. Over the limit: 429 with
   * Retry-After. This route's per-IP count is also that IP's budget of password checks, which basic auth
   * on /admin/queues and /metrics spends too. Failed checks are limited as well: 10 in a row for one
   * account (the username, in any case) from one IP, then that pair is refused for 3600 s, a success
   * starting the count again (PASSWORD_CONSECUTIVE_FAILURE_LIMIT, PASSWORD_CONSECUTIVE_BLOCK_SECONDS);
   * 100 per IP per 86400 s, all accounts together (PASSWORD_ADDRESS_FAILURE_LIMIT,
   * PASSWORD_ADDRESS_FAILURE_WINDOW_SECONDS); and 10 per account per 60 s from all IPs
   * (PASSWORD_ACCOUNT_RATE_LIMIT, PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS), beyond which only an IP that
   * has not failed at the account is checked. 429 beyond any of them.
   *
   * Public: no credential.
   *
   * POST /api/token/
   */
  createToken(body: TokenRequest, options?: RequestOptions): Promise<TokenPair> {
    return this.transport.call<TokenPair>(operations.createToken, { body }, options);
  }

  /**
   * Get a new access token with a refresh token
   *
   * The refresh token is not rotated: it stays valid until it expires or its user's sessions are ended
   * (a revocation, a password change or a deactivation). An access token is refused here, as a refresh
   * token is refused as a bearer credential. Expired, tampered, unsigned (alg none) or otherwise-signed
   * tokens are 401. Access tokens live 900 s (JWT_ACCESS_TTL_SECONDS, default 900 = 15 min); refresh
   * tokens 604800 s (JWT_REFRESH_TTL_SECONDS, default 604800 = 7 days). Both are HS256 JWTs. Rate
   * limited per client IP: 10 requests per 60 s window, started by the first request (TOKEN_RATE_LIMIT,
   * TOKEN_RATE_WINDOW_SECONDS), counted separately for token and refresh and shared by every web
   * process. Over the limit: 429 with Retry-After.
   *
   * Public: no credential.
   *
   * POST /api/token/refresh/
   */
  refreshToken(body: RefreshRequest, options?: RequestOptions): Promise<AccessToken> {
    return this.transport.call<AccessToken>(operations.refreshToken, { body }, options);
  }

  /**
   * The merchant bound to the credential
   *
   * username is the short login name, not the e-mail. A merchant user's JWT or a merchant token: its
   * merchant. The system token: the merchant named by X-Merchant-Id, or, without that header, only role
   * system with the merchant fields null. A staff user's JWT: the staff user, merchant fields null.
   *
   * Bearer credential: a JWT access token of a merchant or staff user, or an individual merchant token
   * (mt_...), or the system token. No, invalid or expired credential: 401. Another kind of credential:
   * 403.
   *
   * GET /api/v1/me/
   */
  getMe(options?: RequestOptions): Promise<Me> {
    return this.transport.call<Me>(operations.getMe, {}, options);
  }
}

/**
 * Commercial managers linked to merchants, and the global CEO contact. Staff credentials only
 *
 * Tag "commercial-contacts" of the document.
 */
export class CommercialContactsApi extends ApiGroup {
  /**
   * List commercial contacts, alphabetical
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/commercial-contacts/
   */
  listCommercialContacts(
    query?: ListCommercialContactsQuery,
    options?: RequestOptions,
  ): Promise<ListCommercialContactsResponse> {
    return this.transport.call<ListCommercialContactsResponse>(operations.listCommercialContacts, { query }, options);
  }

  /**
   * Create a commercial contact
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/commercial-contacts/
   */
  createCommercialContact(body: CommercialContactCreate, options?: RequestOptions): Promise<CommercialContact> {
    return this.transport.call<CommercialContact>(operations.createCommercialContact, { body }, options);
  }

  /**
   * Change some fields of a commercial contact
   *
   * Only the fields sent change; an absent field keeps its value.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * PATCH /api/v1/commercial-contacts/{pk}/
   *
   * @param pk Contact id
   */
  updateCommercialContact(
    pk: string | number,
    body: CommercialContactPatch,
    options?: RequestOptions,
  ): Promise<CommercialContact> {
    return this.transport.call<CommercialContact>(
      operations.updateCommercialContact,
      { pathParams: { pk }, body },
      options,
    );
  }

  /**
   * List a merchant's commercial contacts, alphabetical
   *
   * The contacts whose merchant_ids contain this merchant; an empty list when none is linked.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/merchants/{id}/commercial-contacts/
   *
   * @param id Merchant id
   */
  listMerchantCommercialContacts(
    id: string | number,
    query?: ListMerchantCommercialContactsQuery,
    options?: RequestOptions,
  ): Promise<ListMerchantCommercialContactsResponse> {
    return this.transport.call<ListMerchantCommercialContactsResponse>(
      operations.listMerchantCommercialContacts,
      { pathParams: { id }, query },
      options,
    );
  }

  /**
   * Read the global CEO contact
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/global-ceo/
   */
  getGlobalCeo(options?: RequestOptions): Promise<GetGlobalCeoResponse> {
    return this.transport.call<GetGlobalCeoResponse>(operations.getGlobalCeo, {}, options);
  }

  /**
   * Register or replace the global CEO contact
   *
   * Creates the CEO contact or replaces it whole. Concurrent PUTs leave exactly one record: the last one
   * written.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No, invalid or expired
   * credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/global-ceo/
   */
  putGlobalCeo(body: GlobalCeoPut, options?: RequestOptions): Promise<GlobalCeo> {
    return this.transport.call<GlobalCeo>(operations.putGlobalCeo, { body }, options);
  }
}

/**
 * What operators watch (Prometheus)
 *
 * Tag "metrics" of the document.
 */
export class MetricsApi extends ApiGroup {
  /**
   * Prometheus metrics of this process
   *
   * HTTP basic auth with DASHBOARD_USER / DASHBOARD_PASSWORD (as /admin/queues). Request counts and
   * durations by route template and status, queue depth per queue and state (read from Redis), acquirer
   * call latency and errors, process figures. Worker processes serve their job figures on their own
   * METRICS_PORT.
   *
   * Public: no credential.
   *
   * GET /metrics
   */
  getMetrics(options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getMetrics, {}, options);
  }
}

/**
 * Online card and PIX sales through the acquirer: pre-capture, capture, cancel, PIX status
 *
 * Tag "online-sales" of the document.
 */
export class SalesApi extends ApiGroup {
  /**
   * Start an online sale: authorize a card (capture later) or create a PIX charge
   *
   * HTTP 200 does not mean approval: check data.approved and data.sale_status. An approved card is
   * PRE_CAPTURED (capture or cancel it later); a denied card is 200 with approved false, sale_status
   * DENIED, denial_code and denial_message, and can be neither captured nor cancelled. A PIX sale is
   * PENDING with the copy-and-paste code (data.pix.qr_code) and its expiry; it becomes CONFIRMED when
   * the acquirer notifies the payment. On 502 the body tells whether nothing was charged (sale_status
   * FAILED) or the outcome is being confirmed (reconciling true).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * POST /api/v1/online/sales/pre-capture/
   */
  preCaptureSale(body: PreCaptureRequest, options?: PreCaptureSaleOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(
      operations.preCaptureSale,
      { body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }

  /**
   * Capture a pre-captured card sale
   *
   * PRE_CAPTURED becomes CONFIRMED. With no body, the whole authorized value is captured, as the
   * contract says; a body {"value": <cents>} captures less, once: the acquirer releases the rest of the
   * authorization, and a second capture is 400 (the sale is CONFIRMED). captured_value shows what was
   * captured. Two captures at once capture once: one gets 200, the other 409 while the first runs or 400
   * after. A PIX sale, or a sale in another state, is 400 with the reason. Another merchant's sale is
   * 404, like an unknown id (its existence is not revealed).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * PUT /api/v1/online/sales/{id}/capture/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  captureSale(id: string | number, body?: CaptureRequest, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.captureSale, { pathParams: { id }, body }, options);
  }

  /**
   * Read an online sale (stored data only)
   *
   * The sale as recorded, card or PIX. After a 502 with reconciling true, this shows the settled outcome
   * once reconciling is false. Never calls the acquirer. Another merchant's sale is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * GET /api/v1/online/sales/{id}/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  getSale(id: string | number, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.getSale, { pathParams: { id } }, options);
  }

  /**
   * Current PIX payment status of a sale (stored data only)
   *
   * Reads only what is stored (updated by the acquirer notifications): it never calls the acquirer. An
   * unpaid charge past its expiry reads EXPIRED. A card sale is 400. A merchant token sees its own sales
   * only (another merchant's is 404); the system token sees any sale, or only the merchant named in
   * X-Merchant-Id.
   *
   * Bearer credential: an individual merchant token (mt_...), or the system token. No, invalid or
   * expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/online/sales/{id}/pix/status/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  getPixStatus(id: string | number, options?: RequestOptions): Promise<PixStatusResponse> {
    return this.transport.call<PixStatusResponse>(operations.getPixStatus, { pathParams: { id } }, options);
  }

  /**
   * Acquirer card/PIX notification intake
   *
   * Called by the acquirer, not by merchants. Authenticated by X-Acquirer-Signature: "sha256=" + hex
   * HMAC-SHA256 of the raw body keyed with ACQUIRER_NOTIFICATION_SECRET (compared in constant time). The
   * raw notice is stored (one document per body, so retries are one notice) and 200 is answered at once;
   * a worker reads the sale from the acquirer and settles ours. Repeated or out-of-order notices change
   * nothing twice.
   *
   * Public: no credential.
   *
   * POST /api/v1/online/sales/notifications/
   */
  receivePaymentNotification(
    body: PaymentNotice,
    options: ReceivePaymentNotificationOptions,
  ): Promise<ReceivePaymentNotificationResponse> {
    return this.transport.call<ReceivePaymentNotificationResponse>(
      operations.receivePaymentNotification,
      { body, headers: { 'X-Acquirer-Signature': options?.acquirerSignature } },
      options,
    );
  }

  /**
   * Cancel a card sale: void a pre-captured one, refund a confirmed one
   *
   * PRE_CAPTURED is voided (CANCELLED). CONFIRMED is refunded (REFUNDED) only when the merchant's
   * allow_void_on_confirmed setting is on; otherwise 400 saying so. A PIX sale or any other state is 400
   * with the reason. Another merchant's sale is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * PUT /api/v1/online/sales/{id}/cancel-capture/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  cancelSale(id: string | number, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.cancelSale, { pathParams: { id } }, options);
  }
}

/**
 * Partial and repeated refunds of captured card sales and paid PIX, reconciled against the acquirer
 *
 * Tag "refunds" of the document.
 */
export class RefundsApi extends ApiGroup {
  /**
   * Refund part or all of a captured card sale or a paid PIX
   *
   * Gives back `value` cents (absent: all that is left) of a CONFIRMED or PARTIALLY_REFUNDED card or PIX
   * sale, as many times as wanted up to the captured value: the pending and succeeded refunds of a sale
   * never add up to more, whatever runs at once. A sale's refunds reach the acquirer one at a time, 5 s
   * apart: 201 when the acquirer settled this one at once (status succeeded or failed), 202 with status
   * pending when it waits its turn or its outcome is being confirmed (read it with getRefund). Low
   * balance at the acquirer or a refund it finds too late end as a failed refund with failure_reason,
   * not an error. A PIX refund stays pending (202) until the acquirer's notice completes it. Past 360
   * days after a card capture, or 90 days after a PIX payment: 422. Another merchant's sale is 404. See
   * docs/api/refunds.md.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * POST /api/v1/online/sales/{id}/refunds/
   *
   * @param id Sale id
   */
  createRefund(id: string | number, body?: RefundRequest, options?: CreateRefundOptions): Promise<RefundResponse> {
    return this.transport.call<RefundResponse>(
      operations.createRefund,
      { pathParams: { id }, body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }

  /**
   * A sale's refunds, oldest first
   *
   * Stored data only. Another merchant's sale is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * GET /api/v1/online/sales/{id}/refunds/
   *
   * @param id Sale id
   */
  listSaleRefunds(id: string | number, options?: RequestOptions): Promise<RefundListResponse> {
    return this.transport.call<RefundListResponse>(operations.listSaleRefunds, { pathParams: { id } }, options);
  }

  /**
   * Read a refund
   *
   * Stored data only: pending, succeeded or failed. Another merchant's refund is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No, invalid or expired credential: 401.
   * Another kind of credential: 403.
   *
   * GET /api/v1/refunds/{id}/
   *
   * @param id Refund id
   */
  getRefund(id: string | number, options?: RequestOptions): Promise<RefundResponse> {
    return this.transport.call<RefundResponse>(operations.getRefund, { pathParams: { id } }, options);
  }
}

/**
 * The public key that encrypts cards (encrypted_card of sales, subscriptions and the checkout). No
 * credential.
 *
 * Tag "cards" of the document.
 */
export class GeneratedCardsApi extends ApiGroup {
  /**
   * The public key to encrypt cards with
   *
   * encrypted_card = base64(RSAES-PKCS1-v1_5(public_key, UTF-8 JSON of the card)). The card JSON:
   * number: string: 12 to 19 digits passing the Luhn check; spaces and hyphens are ignored; holder:
   * string: the name printed on the card, 1 to 25 characters after trimming; expMonth: integer 1 to 12,
   * as a JSON number (12) or a string of 1 or 2 digits ("05"); expYear: integer, 4 digits (2031) or 2
   * digits meaning 20YY (31), as a JSON number or a string of digits; the card is valid through the end
   * of that month; cvv: string: 3 digits (4 for Amex). Cards encrypted with a previous key are accepted
   * until previous_accepted_until (at least 7 days after a rotation); the answer may be cached 3600 s.
   * Examples for Node and openssl: docs/cards.md.
   *
   * Public: no credential.
   *
   * GET /api/v1/cards/public-key/
   */
  getCardPublicKey(options?: RequestOptions): Promise<CardPublicKey> {
    return this.transport.call<CardPublicKey>(operations.getCardPublicKey, {}, options);
  }
}

/**
 * The merchant's customers and their saved cards: a card is checked with Zero Auth (nothing charged)
 * and kept as the acquirer's token, never its number or CVV. Merchant credentials; another merchant's
 * customer is not found. See docs/api/customers.md.
 *
 * Tag "customers" of the document.
 */
export class CustomersApi extends ApiGroup {
  /**
   * Create a customer
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/customers/
   */
  createCustomer(body: CustomerCreate, options?: RequestOptions): Promise<Customer> {
    return this.transport.call<Customer>(operations.createCustomer, { body }, options);
  }

  /**
   * List customers, newest first, or find them by e-mail or document
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/customers/
   */
  listCustomers(query?: ListCustomersQuery, options?: RequestOptions): Promise<CustomerList> {
    return this.transport.call<CustomerList>(operations.listCustomers, { query }, options);
  }

  /**
   * Read a customer
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/customers/{id}/
   *
   * @param id cus_<24 hex>
   */
  getCustomer(id: string | number, options?: RequestOptions): Promise<Customer> {
    return this.transport.call<Customer>(operations.getCustomer, { pathParams: { id } }, options);
  }

  /**
   * Change a customer (only the fields sent)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * PATCH /api/v1/customers/{id}/
   *
   * @param id cus_<24 hex>
   */
  updateCustomer(id: string | number, body: CustomerPatch, options?: RequestOptions): Promise<Customer> {
    return this.transport.call<Customer>(operations.updateCustomer, { pathParams: { id }, body }, options);
  }

  /**
   * Delete a customer and forget its saved cards
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * DELETE /api/v1/customers/{id}/
   *
   * @param id cus_<24 hex>
   */
  deleteCustomer(id: string | number, options?: RequestOptions): Promise<unknown> {
    return this.transport.call<unknown>(operations.deleteCustomer, { pathParams: { id } }, options);
  }

  /**
   * Save a customer's card: checked with Zero Auth, kept as the acquirer's token
   *
   * The same card (number and expiry) saved again for the same customer is the same card: 200 with it,
   * nothing sent to the acquirer. A brand the acquirer runs no Zero Auth for (it checks Visa, Master and
   * Elo) is saved with check.status skipped.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/customers/{id}/cards/
   *
   * @param id cus_<24 hex>
   */
  saveCustomerCard(id: string | number, body: CustomerCardSave, options?: RequestOptions): Promise<CustomerCard> {
    return this.transport.call<CustomerCard>(operations.saveCustomerCard, { pathParams: { id }, body }, options);
  }

  /**
   * A customer's saved cards, newest first
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/customers/{id}/cards/
   *
   * @param id cus_<24 hex>
   */
  listCustomerCards(id: string | number, options?: RequestOptions): Promise<CustomerCardList> {
    return this.transport.call<CustomerCardList>(operations.listCustomerCards, { pathParams: { id } }, options);
  }

  /**
   * Read a saved card
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/customers/{id}/cards/{card_id}/
   *
   * @param id cus_<24 hex>
   *
   * @param cardId card_<24 hex>
   */
  getCustomerCard(id: string | number, cardId: string | number, options?: RequestOptions): Promise<CustomerCard> {
    return this.transport.call<CustomerCard>(
      operations.getCustomerCard,
      { pathParams: { id, card_id: cardId } },
      options,
    );
  }

  /**
   * Delete a saved card (its token is forgotten)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * DELETE /api/v1/customers/{id}/cards/{card_id}/
   *
   * @param id cus_<24 hex>
   *
   * @param cardId card_<24 hex>
   */
  deleteCustomerCard(id: string | number, cardId: string | number, options?: RequestOptions): Promise<unknown> {
    return this.transport.call<unknown>(
      operations.deleteCustomerCard,
      { pathParams: { id, card_id: cardId } },
      options,
    );
  }
}

/**
 * Payment links: a URL of a public checkout page the payer opens to pay by card
 *
 * Tag "payment-links" of the document.
 */
export class PaymentLinksApi extends ApiGroup {
  /**
   * Create a payment link
   *
   * The merchant comes from the credential only. Every bad field is reported at once as a field map. The
   * response never shows the e-mail. Aliases: merchant_name for payer_name; webhook_url, callbackUrl,
   * callback_url for webhookUrl.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/payment-links/
   */
  createPaymentLink(body: PaymentLinkCreate, options?: CreatePaymentLinkOptions): Promise<PaymentLink> {
    return this.transport.call<PaymentLink>(
      operations.createPaymentLink,
      { body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }

  /**
   * Read a payment link of the caller
   *
   * Status 2 (Pago) once paid, with payment_date and sale_id: the card sale the payment is recorded as.
   * The link is refunded through that sale (createRefund: partial and repeated, up to the value); the
   * link stays 2 (Pago) and its webhook receives payment_link.refund_succeeded or
   * payment_link.refund_failed. Another merchant's link is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/payment-links/{id}/
   */
  getPaymentLink(id: string | number, options?: RequestOptions): Promise<PaymentLink> {
    return this.transport.call<PaymentLink>(operations.getPaymentLink, { pathParams: { id } }, options);
  }
}

/**
 * Events POSTed to a payment link's webhookUrl, signed per Standard Webhooks: headers webhook-id
 * (msg_<link>_<sequence>, the same on every retry), webhook-timestamp (unix seconds),
 * webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>" with the merchant secret). Body
 * {"type", "timestamp", "data": {..., "sequence"}}; types payment_link.paid and
 * payment_link.payment_denied; data.sequence increases per link so receivers can ignore stale events.
 * Any 2xx is success; 410 stops retries; redirects are not followed; others retry with exponential
 * backoff and jitter, 16 attempts over about 3 days.
 *
 * Tag "webhooks" of the document.
 */
export class WebhooksApi extends ApiGroup {
  /**
   * Webhook events of a link, each with every delivery attempt
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/payment-links/{id}/webhooks/
   */
  listLinkWebhookEvents(id: string | number, options?: RequestOptions): Promise<ListLinkWebhookEventsResponse> {
    return this.transport.call<ListLinkWebhookEventsResponse>(
      operations.listLinkWebhookEvents,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * Deliver an event once more
   *
   * One more attempt, queued now, with the same webhook-id and body (a fresh timestamp and signature);
   * recorded with trigger redelivery. Works on any event, delivered or not. At most 5 per event per hour
   * and 100 per merchant per 10 minutes (429 with Retry-After).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/payment-links/{id}/webhooks/{eventId}/redeliver/
   */
  redeliverWebhookEvent(
    id: string | number,
    eventId: string | number,
    options?: RequestOptions,
  ): Promise<RedeliverWebhookEventResponse> {
    return this.transport.call<RedeliverWebhookEventResponse>(
      operations.redeliverWebhookEvent,
      { pathParams: { id, eventId } },
      options,
    );
  }

  /**
   * Read the webhook signing secret (created on first read)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/webhooks/secret/
   */
  getWebhookSecret(options?: RequestOptions): Promise<WebhookSecret> {
    return this.transport.call<WebhookSecret>(operations.getWebhookSecret, {}, options);
  }

  /**
   * Rotate the webhook signing secret
   *
   * The new secret signs at once; the previous one keeps signing beside it for 24 hours, so a receiver
   * can switch without rejecting events.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/webhooks/secret/rotate/
   */
  rotateWebhookSecret(options?: RequestOptions): Promise<WebhookSecret> {
    return this.transport.call<WebhookSecret>(operations.rotateWebhookSecret, {}, options);
  }
}

/**
 * Public checkout of a payment link, and the authorisation page of a Pix Automático mandate: the pages
 * and the calls they make. No credential.
 *
 * Tag "checkout" of the document.
 */
export class CheckoutApi extends ApiGroup {
  /**
   * Load a checkout
   *
   * What the page needs: amount, description, merchant company name, installments, expiry, status,
   * payerName, the RSA public key, and the receipt once paid.
   *
   * Public: no credential.
   *
   * GET /api/v1/checkout-links/{guid}
   *
   * @param guid payment_link_guid of the link
   */
  loadCheckout(guid: string | number, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.loadCheckout, { pathParams: { guid } }, options);
  }

  /**
   * Payer step: name and CPF/CNPJ
   *
   * Public: no credential.
   *
   * PATCH /api/v1/checkout-links/{guid}/payer
   *
   * @param guid payment_link_guid of the link
   */
  setCheckoutPayer(guid: string | number, body: CheckoutPayer, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.setCheckoutPayer, { pathParams: { guid }, body }, options);
  }

  /**
   * Address step
   *
   * cep is required; the other lines are optional and replace what was saved.
   *
   * Public: no credential.
   *
   * PATCH /api/v1/checkout-links/{guid}/address
   *
   * @param guid payment_link_guid of the link
   */
  setCheckoutAddress(guid: string | number, body: CheckoutAddress, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.setCheckoutAddress, { pathParams: { guid }, body }, options);
  }

  /**
   * The installment options the payer may choose
   *
   * From 1 up to the link's number_of_installments, while each installment is at least its
   * min_installment_value: each with its installment value, total and whether it is interest-free, in
   * integer cents (interest by the Price table, the installment rounded half up; interest-free: rounded
   * down, the first installment carrying the rest), and a Portuguese label for the page.
   *
   * Public: no credential.
   *
   * GET /api/v1/checkout-links/{guid}/installments
   *
   * @param guid payment_link_guid of the link
   */
  getCheckoutInstallments(guid: string | number, options?: RequestOptions): Promise<CheckoutInstallments> {
    return this.transport.call<CheckoutInstallments>(
      operations.getCheckoutInstallments,
      { pathParams: { guid } },
      options,
    );
  }

  /**
   * Pay step: charge the encrypted card
   *
   * Decrypts the card, checks Luhn, expiry and CVV shape, and charges it through the acquirer as a
   * captured sale in the installments the payer chose (`installments`, one of the link's options;
   * absent: the link's number_of_installments); with interest the charged total is the option's total.
   * Needs the payer step done (payer name and a valid CPF/CNPJ on the link), else 400. Approved: 200
   * approved true, the link is paid (status 2, payment_date set). Denied: 200 approved false with the
   * denial; the link stays payable. Of many concurrent pays exactly one charges; the others get 409. One
   * client address may make CHECKOUT_PAY_RATE_LIMIT pay calls (default 30) per
   * CHECKOUT_PAY_RATE_WINDOW_SECONDS (default 600) across all links, counted in Redis and shared by
   * every web process; over it the answer is 429 with Retry-After. The limit is generous because phones
   * on mobile networks share addresses (CGNAT). While Redis is down the limit is not applied (payment
   * needs no Redis; the per-link stop after 10 declines still holds).
   *
   * Public: no credential.
   *
   * PUT /api/v1/checkout-links/{guid}/pay
   *
   * @param guid payment_link_guid of the link
   */
  payCheckout(guid: string | number, body: CheckoutPay, options?: RequestOptions): Promise<CheckoutPayResult> {
    return this.transport.call<CheckoutPayResult>(operations.payCheckout, { pathParams: { guid }, body }, options);
  }

  /**
   * PIX: the QR code to pay the link
   *
   * For a link whose payment_methods include pix, once the payer step is done. Answers the live QR code
   * if there is one (the same for whoever asks), else makes a new one once the one before has expired
   * (lifetime: the link's pix_expires_in, never past the link's expiry). 409 with Retry-After while
   * another payer is making it or a card pay is in progress. Counted in the pay rate limit. When the
   * acquirer fails a new code (502, or 200 with status failed), the link makes no new one for a while:
   * each POST meanwhile is 503 with Retry-After, calling nobody. The wait is CHECKOUT_PIX_BACKOFF_MS
   * (default 5 s), doubled by each failure in a row up to CHECKOUT_PIX_BACKOFF_MAX_MS (default 60 s),
   * kept in Redis for every web process, forgotten once a code is made. Other links are not affected.
   *
   * Public: no credential.
   *
   * POST /api/v1/checkout-links/{guid}/pix
   *
   * @param guid payment_link_guid of the link
   */
  startCheckoutPix(guid: string | number, options?: RequestOptions): Promise<CheckoutPix> {
    return this.transport.call<CheckoutPix>(operations.startCheckoutPix, { pathParams: { guid } }, options);
  }

  /**
   * PIX: the state of the newest QR code (the page polls it)
   *
   * paid once the acquirer's notice has been confirmed with it and applied: the link is then paid (load
   * the checkout for its receipt). A QR code paid after the link already was is paid_twice: never the
   * link's payment; its money goes back.
   *
   * Public: no credential.
   *
   * GET /api/v1/checkout-links/{guid}/pix
   *
   * @param guid payment_link_guid of the link
   */
  getCheckoutPix(guid: string | number, options?: RequestOptions): Promise<CheckoutPix> {
    return this.transport.call<CheckoutPix>(operations.getCheckoutPix, { pathParams: { guid } }, options);
  }

  /**
   * Pix Automático: what the payer's authorisation page shows (it polls this)
   *
   * The mandate's state for the payer, the merchant's name, the plan, the amount and its period, the
   * first due date, journey 3's payment now, and the QR code while it waits. The payer document is
   * masked; no id.
   *
   * Public: no credential.
   *
   * GET /api/v1/checkout-mandates/{token}
   *
   * @param token The page token of the mandate (the end of the subscription mandate's authorizationUrl)
   */
  loadMandateCheckout(token: string | number, options?: RequestOptions): Promise<MandateCheckout> {
    return this.transport.call<MandateCheckout>(operations.loadMandateCheckout, { pathParams: { token } }, options);
  }

  /**
   * Pix Automático: the payer's authorisation page (HTML): the mandate's authorizationUrl points here
   *
   * Public: no credential.
   *
   * GET /checkout/pix-automatico/{token}
   *
   * @param token The page token of the mandate (the end of the subscription mandate's authorizationUrl)
   */
  getMandateCheckoutPage(token: string | number, options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getMandateCheckoutPage, { pathParams: { token } }, options);
  }

  /**
   * The checkout page (HTML): payment_link_url points here
   *
   * Public: no credential.
   *
   * GET /checkout/{guid}
   *
   * @param guid payment_link_guid of the link
   */
  getCheckoutPage(guid: string | number, options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getCheckoutPage, { pathParams: { guid } }, options);
  }

  /**
   * Static assets of the checkout pages (checkout.js, checkout.css, pix-view.js, forge.min.js...)
   *
   * Public: no credential.
   *
   * GET /checkout/assets/{file}
   */
  getCheckoutAsset(file: string | number, options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getCheckoutAsset, { pathParams: { file } }, options);
  }
}

/**
 * Account webhook endpoints: every event of the account whose type an endpoint subscribes to is POSTed
 * to it, signed per Standard Webhooks with the endpoint's own secret (webhook-id = the event id). At
 * least once: retried with exponential backoff for about 3 days; an endpoint whose delivery failed
 * that long, with no success since, is disabled (disabled_reason says why). At most 16 per merchant.
 * See docs/api/events.md.
 *
 * Tag "webhook-endpoints" of the document.
 */
export class WebhookEndpointsApi extends ApiGroup {
  /**
   * Create a webhook endpoint (its secret is shown only now)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/webhook-endpoints/
   */
  createWebhookEndpoint(body: WebhookEndpointCreate, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.transport.call<WebhookEndpointWithSecret>(operations.createWebhookEndpoint, { body }, options);
  }

  /**
   * The merchant's webhook endpoints, oldest first
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/webhook-endpoints/
   */
  listWebhookEndpoints(options?: RequestOptions): Promise<ListWebhookEndpointsResponse> {
    return this.transport.call<ListWebhookEndpointsResponse>(operations.listWebhookEndpoints, {}, options);
  }

  /**
   * Read a webhook endpoint
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/webhook-endpoints/{id}/
   *
   * @param id we_<24 hex>
   */
  getWebhookEndpoint(id: string | number, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.transport.call<WebhookEndpoint>(operations.getWebhookEndpoint, { pathParams: { id } }, options);
  }

  /**
   * Change a webhook endpoint (enabled: true enables it again after the service disabled it)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * PATCH /api/v1/webhook-endpoints/{id}/
   *
   * @param id we_<24 hex>
   */
  updateWebhookEndpoint(
    id: string | number,
    body: WebhookEndpointUpdate,
    options?: RequestOptions,
  ): Promise<WebhookEndpoint> {
    return this.transport.call<WebhookEndpoint>(
      operations.updateWebhookEndpoint,
      { pathParams: { id }, body },
      options,
    );
  }

  /**
   * Delete a webhook endpoint
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * DELETE /api/v1/webhook-endpoints/{id}/
   *
   * @param id we_<24 hex>
   */
  deleteWebhookEndpoint(id: string | number, options?: RequestOptions): Promise<unknown> {
    return this.transport.call<unknown>(operations.deleteWebhookEndpoint, { pathParams: { id } }, options);
  }

  /**
   * Rotate an endpoint's signing secret
   *
   * The new secret signs at once; the previous one keeps signing beside it for 24 hours.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/webhook-endpoints/{id}/rotate-secret/
   *
   * @param id we_<24 hex>
   */
  rotateWebhookEndpointSecret(id: string | number, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.transport.call<WebhookEndpointWithSecret>(
      operations.rotateWebhookEndpointSecret,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * An endpoint's newest 100 deliveries, each with every attempt
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/webhook-endpoints/{id}/deliveries/
   *
   * @param id we_<24 hex>
   */
  listWebhookEndpointDeliveries(
    id: string | number,
    options?: RequestOptions,
  ): Promise<ListWebhookEndpointDeliveriesResponse> {
    return this.transport.call<ListWebhookEndpointDeliveriesResponse>(
      operations.listWebhookEndpointDeliveries,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * Deliver an event to this endpoint once more
   *
   * One more attempt, same webhook-id and body. At most 5 per delivery per hour and 100 per merchant per
   * 10 minutes (429 with Retry-After).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver/
   *
   * @param id we_<24 hex>
   */
  redeliverWebhookEndpointDelivery(
    id: string | number,
    deliveryId: string | number,
    options?: RequestOptions,
  ): Promise<RedeliverWebhookEndpointDeliveryResponse> {
    return this.transport.call<RedeliverWebhookEndpointDeliveryResponse>(
      operations.redeliverWebhookEndpointDelivery,
      { pathParams: { id, deliveryId } },
      options,
    );
  }
}

/**
 * Every state change of the merchant's money objects, kept 30 days: the same bodies the webhook
 * endpoints receive. Types: sale.authorized, sale.denied, sale.captured, sale.cancelled,
 * sale.refunded, refund.pending, refund.succeeded, refund.failed, pix.paid, pix.expired,
 * payment_link.paid, payment_link.payment_denied, payment_link.pix_expired, payment_link.paid_twice,
 * subscription.created, subscription.cancelled, subscription.mandate_approved,
 * subscription.mandate_rejected, subscription.mandate_expired, subscription.mandate_cancelled,
 * subscription_charge.confirmed, subscription_charge.denied, subscription_charge.refunded,
 * chargeback.received, chargeback.updated, chargeback.accepted, chargeback.refused. See
 * docs/api/events.md.
 *
 * Tag "events" of the document.
 */
export class EventsApi extends ApiGroup {
  /**
   * List events, newest first
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/events/
   */
  listEvents(query?: ListEventsQuery, options?: RequestOptions): Promise<AccountEventList> {
    return this.transport.call<AccountEventList>(operations.listEvents, { query }, options);
  }

  /**
   * Read one event
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No, invalid or expired credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/events/{id}/
   */
  getEvent(id: string | number, options?: RequestOptions): Promise<AccountEvent> {
    return this.transport.call<AccountEvent>(operations.getEvent, { pathParams: { id } }, options);
  }
}

/** The instances of the groups a hand-written class extends: the client constructs those itself. */
export interface ExtendedGroups {
  cards: GeneratedCardsApi;
}

/** The groups of the client, one per tag; the client names the classes of those it extends by hand. */
export abstract class GeneratedClient<Extended extends ExtendedGroups = ExtendedGroups> {
  readonly health: HealthApi;
  readonly docs: DocsApi;
  readonly chargebacks: ChargebacksApi;
  readonly subscriptions: SubscriptionsApi;
  readonly auth: AuthApi;
  readonly commercialContacts: CommercialContactsApi;
  readonly metrics: MetricsApi;
  readonly sales: SalesApi;
  readonly refunds: RefundsApi;
  readonly cards: Extended['cards'];
  readonly customers: CustomersApi;
  readonly paymentLinks: PaymentLinksApi;
  readonly webhooks: WebhooksApi;
  readonly checkout: CheckoutApi;
  readonly webhookEndpoints: WebhookEndpointsApi;
  readonly events: EventsApi;
  protected constructor(transport: Transport, extended: Extended) {
    this.health = new HealthApi(transport);
    this.docs = new DocsApi(transport);
    this.chargebacks = new ChargebacksApi(transport);
    this.subscriptions = new SubscriptionsApi(transport);
    this.auth = new AuthApi(transport);
    this.commercialContacts = new CommercialContactsApi(transport);
    this.metrics = new MetricsApi(transport);
    this.sales = new SalesApi(transport);
    this.refunds = new RefundsApi(transport);
    this.cards = extended.cards;
    this.customers = new CustomersApi(transport);
    this.paymentLinks = new PaymentLinksApi(transport);
    this.webhooks = new WebhooksApi(transport);
    this.checkout = new CheckoutApi(transport);
    this.webhookEndpoints = new WebhookEndpointsApi(transport);
    this.events = new EventsApi(transport);
  }
}
