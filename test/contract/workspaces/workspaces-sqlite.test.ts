import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWorkspaceContract } from './workspace-contract.js';

describeWorkspaceContract('SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-workspaces-'));
  return { url: `sqlite:${join(dir, 'gateway.db')}`, cleanup: () => rm(dir, { recursive: true, force: true }) };
});
