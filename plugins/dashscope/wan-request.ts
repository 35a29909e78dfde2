/**
 * How a Wan video request is described, and the field rules the Wan API reference pages share. Each endpoint
 * file (one per API reference page) lists its own map from these; `wanRequestBody` turns input into the body.
 * Request fields sit under `input`, settings under `parameters` on every page.
 */
import { mapFields, type FieldMap, type FieldRule, type JsonObject, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';

export const VIDEO_SYNTHESIS_PATH = 'api/v1/services/aigc/video-generation/video-synthesis';

/** One of our URL inputs sent as an element of `input.media` (the wan2.7 protocol). */
export interface MediaRule {
  /** Our field: a URL, or an array of URLs (one element each). */
  from: string;
  /** The vendor's `media[].type`. */
  type: string;
}

/** One Wan API reference page: where it is, which model it runs and how our input maps onto its body. */
export interface WanEndpoint {
  /** What the page does, for messages: e.g. `first-and-last-frame run`. */
  run: string;
  /** Relative to the base URL. */
  path: string;
  /** The vendor model: from the route's family (`wan2.6`) and the route's own text-to-video model. */
  model(family: string, textModel: string): string;
  fields: FieldMap;
  /** Inputs sent as `input.media[]`, in this order (the prompt refers to them by position within a type). */
  media?: MediaRule[];
  /** The only length the model renders, where it takes no `duration`. */
  fixedDurationSeconds?: number;
}

/** The request body for an endpoint; `model` is the vendor model. */
export function wanRequestBody(endpoint: WanEndpoint, input: JsonObject, model: string): JsonObject {
  const media = (endpoint.media ?? []).flatMap((rule) => urlsOf(input[rule.from]).map((url) => ({ type: rule.type, url })));
  return mapFields(input, endpoint.fields, media.length > 0 ? { model, input: { media } } : { model });
}

/** Our inputs an endpoint takes: its mapped fields and its media. */
export function acceptedInputs(endpoint: WanEndpoint): Set<string> {
  return new Set([...Object.keys(endpoint.fields), ...(endpoint.media ?? []).map((rule) => rule.from)]);
}

export function urlsOf(value: JsonValue | undefined): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The text every page takes. Negative prompts go under `input` (the DashScope SDK sends them there for every model). */
export const promptFields: FieldMap = {
  prompt: 'input.prompt',
  negative_prompt: 'input.negative_prompt',
};

/**
 * The render settings every page but the first-and-last-frame one takes. `watermark` is ours to ask for
 * (spec: "ask the vendor to add its watermark"), so it is off unless asked: wan2.6 and earlier would
 * otherwise watermark by default.
 */
export const renderFields: FieldMap = {
  duration: 'parameters.duration',
  prompt_extend: 'parameters.prompt_extend',
  watermark: { to: 'parameters.watermark', default: false },
  seed: 'parameters.seed',
};

/** Our `720p` as the vendor's tier name `720P`. */
export const resolutionTier: FieldRule = {
  to: 'parameters.resolution',
  transform: (resolution) => (typeof resolution === 'string' ? resolution.toUpperCase() : undefined),
};
