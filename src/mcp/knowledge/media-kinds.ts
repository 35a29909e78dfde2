/**
 * What media an operation consumes and produces, read from its manifest: the output's `asset_type` constant, and
 * input fields that take hosted media by URL (`image_url`, `reference_image_urls`, `audio_url`, ...). The workflow
 * planner chains operations over these kinds, so a new manifest joins the plans without any code naming it.
 */
import type { JsonSchema, OperationManifest } from '../../kernel/manifests/index.js';

export type MediaKind = 'text' | 'image' | 'video' | 'audio' | '3d_model' | '3d_location' | 'data';

export interface MediaInput {
  field: string;
  /** Kinds the field accepts (`file_url` of smartmotion takes an image or a video). */
  kinds: MediaKind[];
  required: boolean;
  /** An array of URLs rather than one. */
  many: boolean;
}

// Field-name conventions the manifests follow for media URLs; the first matching pattern wins.
const kindByFieldName: [RegExp, MediaKind[]][] = [
  [/image|photo|frame|thumbnail/, ['image']],
  [/video|clip/, ['video']],
  [/audio/, ['audio']],
  [/^file_urls?$/, ['image', 'video']],
];

/** The input fields that take hosted media, in schema order. */
export function mediaInputs(manifest: OperationManifest): MediaInput[] {
  const properties = (manifest.input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((manifest.input.required as string[] | undefined) ?? []);
  const inputs: MediaInput[] = [];
  for (const [field, schema] of Object.entries(properties)) {
    if (!/_urls?$/.test(field)) continue;
    const kinds = kindByFieldName.find(([pattern]) => pattern.test(field))?.[1];
    if (!kinds) continue;
    inputs.push({ field, kinds, required: required.has(field), many: schema.type === 'array' });
  }
  return inputs;
}

/** The kind of media a successful request yields (`data` for prompts, characters and other non-media results). */
export function producedKind(manifest: OperationManifest): MediaKind {
  const assetType = ((manifest.output.properties ?? {}) as Record<string, JsonSchema>).asset_type?.const;
  if (assetType === undefined) return /prompt/.test(manifest.family) ? 'text' : 'data';
  return String(assetType) as MediaKind;
}
