/**
 * The `vertex` provider: Imagen on Google Cloud Vertex AI (image.generate, `imagen-4`), which the Gemini API
 * (the `google` plugin) no longer serves. Authenticates as a service account with an OAuth access token bought
 * with a signed JWT (service-account.ts). Synchronous: `start` returns `{ done }`. No `reconcile`: `:predict`
 * takes neither an idempotency key nor a client id, and a predict call cannot be looked up afterwards.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { imagenGenerate } from './imagen-predict.js';
import { isVertexEnabled, PROVIDER_ID, vertexConfigSchema, type VertexConfig } from './vertex-config.js';

export type { VertexConfig } from './vertex-config.js';

export default definePlugin<VertexConfig>({
  id: PROVIDER_ID,
  configSchema: vertexConfigSchema,
  isEnabled: isVertexEnabled,
  operations: {
    'image.generate': imagenGenerate,
  },
});
