/** What `mediagate_build_info` says about the running build: read once at start, from the package that runs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../config/index.js';
import type { GatewayRole } from './metrics.js';

export function buildInfo(role: GatewayRole): { version: string; nodeVersion: string; role: GatewayRole } {
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  return { version, nodeVersion: process.version, role };
}
