/**
 * POST /openapi/v1/image-to-3d: a model from one source image, sent as `image_url`
 * (https://docs.meshy.ai/api/image-to-3d). Answers 202 `{ "result": "<task id>" }`.
 */
import { generationFields, type MeshyModelEndpoint } from './model-request.js';

export const imageTo3d: MeshyModelEndpoint = {
  path: 'openapi/v1/image-to-3d',
  fields: {
    source_image_urls: { to: 'image_url', transform: (urls) => (Array.isArray(urls) ? urls[0] : undefined) },
    ...generationFields,
  },
};
