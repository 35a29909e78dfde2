/** @mediagate/client: a typed client of the mediagate API, generated from its OpenAPI document. */
export { createMediagateClient, type CreateOptions, type MediagateClient, type MediagateClientOptions } from './create-client.js';
export { MediagateApiError, MediagateWaitTimeoutError } from './mediagate-errors.js';
export type {
  AcceptedRequest,
  Estimate,
  FailedRequest,
  FinishedRequest,
  GatewayStatus,
  MediagateRequest,
  OperationInput,
  OperationName,
  OperationOutput,
  PendingOutput,
  Problem,
  ProblemCode,
  RequestCredits,
  RequestReference,
  SucceededRequest,
} from './operation-types.js';
export type { WaitOptions } from './wait-for-result.js';
export type { components, operations, paths } from './schema.js';
