/** The blob contract over the embedded default: a folder on local disk. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFolderBlobs } from '../../../src/kernel/blobs/index.js';
import { describeBlobContract } from './blob-contract.js';

describeBlobContract('LocalFolderBlobs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'mediagate-blobs-'));
  return { store: new LocalFolderBlobs(root), cleanup: () => rm(root, { recursive: true, force: true }) };
});
