export type { BlobStore, BlobInfo } from './blob-port.js';
export { LocalFolderBlobs } from './local-folder-blobs.js';
export { createRequestBlobs, filesBaseUrl } from './request-blobs.js';
export { contentTypeForKey, extensionForContentType } from './content-types.js';
