/**
 * The manifests, compiled once: input/output validators, pricing and model routing per operation.
 * The HTTP API, the OpenAPI document and the worker all ask this registry; none reads YAML itself.
 */
import type { ErrorObject } from 'ajv';
import { ApiError, type FieldError } from '../errors/index.js';
import { priceRequest } from '../credits/credit-rules.js';
import { applyConditionalDefaults } from './conditional-defaults.js';
import type { LoadedManifest } from './load-manifests.js';
import type { DeprecationNotice, ModelRoute, OperationManifest } from './manifest-types.js';
import { compileSchema, type SchemaValidator } from './schema-compiler.js';

export interface PreparedRequest {
  operation: OperationDefinition;
  /** The input after conditional and schema defaults: what is stored and handed to the plugin. */
  input: Record<string, unknown>;
  model: string;
  route: ModelRoute;
  credits: number;
  /** Deprecation notices that apply (legacy operation or legacy model value). */
  deprecations: DeprecationNotice[];
}

export class OperationDefinition {
  constructor(
    readonly manifest: OperationManifest,
    readonly file: string,
    private readonly validateInput: SchemaValidator,
    private readonly validateOutputSchema: SchemaValidator,
  ) {}

  get name(): string {
    return this.manifest.operation;
  }

  /** Validates and prices an input; throws ApiError 422 with every failing field as a JSON pointer. */
  prepare(rawInput: unknown, pointerPrefix = '/input'): PreparedRequest {
    if (rawInput === null || typeof rawInput !== 'object' || Array.isArray(rawInput)) {
      throw new ApiError('MG_VALIDATION_FAILED', 'input must be an object', {
        errors: [{ path: pointerPrefix, message: 'must be an object' }],
      });
    }
    const input = structuredClone(rawInput) as Record<string, unknown>;
    applyConditionalDefaults(input, this.manifest.defaults);
    if (!this.validateInput(input)) {
      throw new ApiError('MG_VALIDATION_FAILED', `input does not validate for ${this.name}`, {
        errors: toFieldErrors(this.validateInput.errors ?? [], pointerPrefix),
      });
    }
    const { routing } = this.manifest;
    const model = this.modelOf(input);
    const route = routing.models[model];
    if (!route) {
      // Only reachable when a manifest's model enum and routing table disagree; say which field.
      throw new ApiError('MG_VALIDATION_FAILED', `model ${model} is not served by ${this.name}`, {
        errors: [{ path: `${pointerPrefix}/${routing.model_field ?? 'model'}`, message: `must be one of ${Object.keys(routing.models).join(', ')}` }],
      });
    }
    if (route.disabled) {
      throw new ApiError('MG_MODEL_DISABLED', route.disabled, {
        errors: [{ path: `${pointerPrefix}/${routing.model_field ?? 'model'}`, message: route.disabled }],
      });
    }
    const deprecations = [this.manifest.deprecated, route.deprecated].filter((notice): notice is DeprecationNotice => !!notice);
    return { operation: this, input, model, route, credits: priceRequest(this.manifest.credits, input), deprecations };
  }

  /** The model value an input (after defaults) selects: its model field, or the operation's default model. */
  modelOf(input: Record<string, unknown>): string {
    const { routing } = this.manifest;
    const selected = routing.model_field ? input[routing.model_field] : undefined;
    return typeof selected === 'string' ? selected : routing.default_model;
  }

  /** Checks a provider's success output against the manifest; returns the problems, empty when valid. */
  checkOutput(output: unknown): string[] {
    if (this.validateOutputSchema(output)) return [];
    return (this.validateOutputSchema.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  }

  /** What `output.model` should say for this route (the client's value when the operation has a model field). */
  publicModelName(model: string): string {
    const field = this.manifest.routing.model_field;
    return field === 'model' || field === 'model_id' ? model : this.manifest.routing.models[model].vendor_model;
  }
}

export class OperationRegistry {
  private readonly byName = new Map<string, OperationDefinition>();

  constructor(manifests: LoadedManifest[]) {
    for (const { manifest, file } of manifests) {
      this.byName.set(
        manifest.operation,
        new OperationDefinition(manifest, file, compileSchema(manifest.input), compileSchema(manifest.output)),
      );
    }
  }

  get(operation: string): OperationDefinition | undefined {
    return this.byName.get(operation);
  }

  /** Like get(), but a client-facing 422 naming `/operation` when unknown. */
  require(operation: unknown): OperationDefinition {
    const found = typeof operation === 'string' ? this.byName.get(operation) : undefined;
    if (!found) {
      throw new ApiError('MG_UNKNOWN_OPERATION', `operation must be one of: ${this.names().join(', ')}`, {
        errors: [{ path: '/operation', message: typeof operation === 'string' ? `unknown operation ${operation}` : 'must be a string' }],
      });
    }
    return found;
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  all(): OperationDefinition[] {
    return this.names().map((name) => this.byName.get(name)!);
  }
}

/** ajv errors -> JSON pointers into the request body, one entry per failing field. */
function toFieldErrors(errors: ErrorObject[], prefix: string): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
    // The if/then wrapper errors only repeat what the inner error already says.
    if (error.keyword === 'if') continue;
    let path = prefix + error.instancePath;
    if (error.keyword === 'additionalProperties') path += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
    if (error.keyword === 'required') path += `/${(error.params as { missingProperty: string }).missingProperty}`;
    const message = messageOf(error);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ path, message });
  }
  return result;
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties': return 'is not an accepted field';
    case 'required': return 'is required';
    // ajv says only "must be equal to one of the allowed values"; a client needs to know which.
    case 'enum': return `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
    default: return error.message ?? 'is invalid';
  }
}
