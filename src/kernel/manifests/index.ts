export type * from './manifest-types.js';
export { loadManifests, type LoadedManifest } from './load-manifests.js';
export { ManifestError } from './manifest-error.js';
export { OperationRegistry, OperationDefinition, type PreparedRequest } from './operation-registry.js';
