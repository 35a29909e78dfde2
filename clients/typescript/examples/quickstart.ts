/**
 * Price an image, make it, wait for it and print where it is hosted. With a gateway running (`npm start`):
 *
 *   MEDIAGATE_API_KEY=$(cat data/dev-api-key) npx tsx clients/typescript/examples/quickstart.ts
 *
 * MEDIAGATE_URL points it at another gateway (default http://127.0.0.1:8080). Outside this repository, import from
 * '@mediagate/client' instead of '../src/index.js'.
 */
import { createMediagateClient, MediagateApiError } from '../src/index.js';

const apiKey = process.env.MEDIAGATE_API_KEY;
if (!apiKey) throw new Error('set MEDIAGATE_API_KEY, e.g. MEDIAGATE_API_KEY=$(cat data/dev-api-key)');
const client = createMediagateClient({ baseUrl: process.env.MEDIAGATE_URL ?? 'http://127.0.0.1:8080', apiKey });

const input = { prompt: 'a lighthouse at dawn', model: 'nano-banana-pro', aspect_ratio: '16:9', resolution: '1K' } as const;

try {
  const estimate = await client.estimate('image.generate', input);
  console.log(`image.generate costs ${estimate.billableCredits} credits; ${estimate.creditsRemaining} left`);

  // The same idempotency key on a retry returns this request instead of making (and charging) another.
  const accepted = await client.createRequest('image.generate', input, { idempotencyKey: `quickstart-${Date.now()}` });
  console.log(`created ${accepted.id}; first look in ${accepted.poll_after_ms} ms`);

  const result = await client.waitForResult(accepted, { timeoutMs: 5 * 60_000 });
  if (result.status === 'failed') {
    console.error(`${result.id} failed and was refunded: ${result.errorMessage}`);
    process.exitCode = 1;
  } else {
    // `output` is typed by the operation: image.generate has image_url, image_urls, provider, model...
    console.log(`${result.output.image_url} (${result.output.provider}, ${result.billableCredits} credits)`);
  }
} catch (error) {
  if (!(error instanceof MediagateApiError)) throw error;
  // `code` is a stable MG_... code (docs/errors.md); 422 answers name each failing field.
  console.error(`${error.code ?? error.status}: ${error.message}`);
  for (const { path, message } of error.problem?.errors ?? []) console.error(`  ${path}: ${message}`);
  process.exitCode = 1;
}
