export type { BlobStore, BlobInfo } from './blob-port.js';
export { LocalFolderBlobs } from './local-folder-blobs.js';
export { createRequestBlobs, filesBaseUrl } from './request-blobs.js';
export { isSampleName, publishSamples, readSampleCatalogue, sampleKey, samplesBaseUrl, SAMPLES_DIR, type SampleEntry } from './sample-media.js';
export { contentTypeForKey, extensionForContentType } from './content-types.js';
export { S3Blobs, BlobStorageError, type S3BlobsOptions, type S3Credentials } from './s3-blobs.js';
export { openBlobStore, type OpenBlobStoreOptions } from './open-blob-store.js';
