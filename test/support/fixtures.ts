import { fileURLToPath } from 'node:url';

/** Folders of the test-only manifest and plugin (an operation added with one manifest + one plugin). */
export const fixtureManifestDir = fileURLToPath(new URL('../fixtures/manifests', import.meta.url));
export const fixturePluginDir = fileURLToPath(new URL('../fixtures/plugins', import.meta.url));
export const withFixtures = { manifest_dirs: [fixtureManifestDir], plugin_dirs: [fixturePluginDir] };
