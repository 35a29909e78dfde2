/**
 * The client's types, narrowed by operation, all derived from the generated document types (schema.d.ts): an
 * operation's input is its `Create_<operation>` schema's `input`, its output the `Output_<operation>` schema, its
 * request (with its credits) the `RequestDetail` variant whose `operation` it is.
 */
import type { components, operations } from './schema.js';

type Schemas = components['schemas'];

/** Every operation the gateway serves, e.g. `'image.generate'`. */
export type OperationName = Schemas['CreateRequest']['operation'];

/** `three_d.model.generate` -> `three_d_model_generate`: how the document names an operation's schemas. */
type SchemaSuffix<Name extends string> = Name extends `${infer Head}.${infer Tail}` ? `${Head}_${SchemaSuffix<Tail>}` : Name;

/** What `createRequest` and `estimate` take as `input` for the operation. */
export type OperationInput<Op extends OperationName> = Extract<Schemas['CreateRequest'], { operation: Op }>['input'];

/** The operation's output once its request succeeded. */
export type OperationOutput<Op extends OperationName> = `Output_${SchemaSuffix<Op>}` extends infer Key extends keyof Schemas ? Schemas[Key] : never;

/** `output` before the request succeeded: `{}` while queued, the provider's task while processing or after a failure. */
export type PendingOutput = Schemas['PendingOutput'];

/** The credits a request moved, from the account's ledger (only a single request's answers carry them). */
export type RequestCredits = Schemas['RequestCredits'];

export type Problem = Schemas['Problem'];
/** A stable `MG_...` error code (docs/errors.md). */
export type ProblemCode = Problem['code'];

export type GatewayStatus = Schemas['StatusResponse'];
export type Estimate = operations['estimateRequest']['responses'][200]['content']['application/json'];

/** The create answer (202), typed by the operation it was for. */
export type AcceptedRequest<Op extends OperationName> = Omit<Schemas['AcceptedResponse'], 'operation'> & {
  operation: Op;
  /** True when this is the stored answer to an earlier create with the same idempotency key. */
  replayed: boolean;
};

/**
 * A request as the gateway answers for one request: `output` is the operation's output or the pending output.
 * With `Op` left as every operation this is a union that `request.operation === '...'` narrows.
 */
export type MediagateRequest<Op extends OperationName = OperationName> = Op extends OperationName ? Extract<Schemas['RequestDetail'], { operation: Op }> : never;

/** A request that succeeded: its `output` is the operation's output. */
export type SucceededRequest<Op extends OperationName = OperationName> = Op extends OperationName
  ? Omit<MediagateRequest<Op>, 'status' | 'output' | 'errorMessage'> & { status: 'succeeded'; output: OperationOutput<Op>; errorMessage: null }
  : never;

/** A request that failed and was refunded: `errorMessage` says why. */
export type FailedRequest<Op extends OperationName = OperationName> = Op extends OperationName
  ? Omit<MediagateRequest<Op>, 'status' | 'errorMessage'> & { status: 'failed'; errorMessage: string }
  : never;

export type FinishedRequest<Op extends OperationName = OperationName> = SucceededRequest<Op> | FailedRequest<Op>;

/** Anything that names a request and its operation: the create answer, or a request read earlier. */
export interface RequestReference<Op extends OperationName> {
  id: string;
  operation: Op;
  /** From the create answer: how long to wait before the first poll. */
  poll_after_ms?: number;
}
