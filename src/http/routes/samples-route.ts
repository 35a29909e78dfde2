/**
 * The shipped sample media at `/samples/<name>` (see kernel/blobs/sample-media.ts): served from the blob store like
 * `/files/`, with the same types, lengths and byte ranges and no API key. A sample may change with a release, so it
 * is cached for a day rather than marked immutable.
 */
import type { Router } from '@koa/router';
import { isSampleName, sampleKey } from '../../kernel/blobs/index.js';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { sendBlob } from './files-route.js';

export function addSamplesRoute(router: Router, gateway: Gateway): void {
  router.get('/samples/:name', async (ctx) => {
    const { name } = ctx.params;
    if (!isSampleName(name)) throw new ApiError('MG_NOT_FOUND', `no sample ${name}`);
    await sendBlob(ctx, gateway.blobs, sampleKey(name), 'public, max-age=86400');
  });
}
