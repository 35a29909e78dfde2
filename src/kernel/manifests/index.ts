export type * from './manifest-types.js';
export { loadManifests, type LoadedManifest } from './load-manifests.js';
export { ManifestError } from './manifest-error.js';
export { PUBLIC_URL_PLACEHOLDER, renderExamples } from './manifest-examples.js';
export { OperationRegistry, OperationDefinition, type PreparedRequest } from './operation-registry.js';
export { pollingFor } from './polling-strategy.js';
