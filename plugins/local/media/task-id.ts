import { randomBytes } from 'node:crypto';

/**
 * Id of a local "task". The work is finished within `start`, so the id only has to be unique and
 * recognisable (`local_…`, or the vendor-shaped `video_…` for partner2 outputs).
 */
export function newTaskId(prefix = 'local_'): string {
  return `${prefix}${randomBytes(8).toString('hex')}`;
}
