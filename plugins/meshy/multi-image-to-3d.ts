/**
 * POST /openapi/v1/multi-image-to-3d: a model from one to four views of the same object, sent as
 * `image_urls` (https://docs.meshy.ai/api/multi-image-to-3d: "Provide 1 to 4 images"; the manifest caps
 * `source_image_urls` at 4 to match). Answers 202 `{ "result": "<task id>" }`.
 */
import { generationFields, type MeshyModelEndpoint } from './model-request.js';

export const multiImageTo3d: MeshyModelEndpoint = {
  path: 'openapi/v1/multi-image-to-3d',
  fields: {
    source_image_urls: 'image_urls',
    ...generationFields,
  },
};
