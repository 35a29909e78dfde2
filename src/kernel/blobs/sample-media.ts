/**
 * The sample media the gateway ships (`samples/` in the repository, made by `scripts/make-samples.ts`): an image, a
 * video with speech, a voice clip and a character video, which the manifests' examples use as inputs. They are
 * copied into the blob store at start under `samples/<name>` and served at `{public_url}/samples/<name>`; being
 * in the store, a plugin reads them like any hosted file (`ctx.blobs.fetchInput`), never over the network, so
 * every example runs on a fresh clone, offline.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { projectRoot } from '../config/index.js';
import type { BlobStore } from './blob-port.js';
import { contentTypeForKey } from './content-types.js';

/** One line of `samples/catalogue.json`. */
export interface SampleEntry {
  /** File name in `samples/`, and the last segment of its URL. */
  name: string;
  description: string;
  bytes: number;
  /** Of the committed file: a checkout that altered it (a Git LFS pointer, a line-ending filter) is caught at start. */
  sha256: string;
  width?: number;
  height?: number;
  duration_seconds?: number;
  /** The words spoken, where the sample has speech. */
  transcript?: string;
}

export const SAMPLES_DIR = join(projectRoot, 'samples');

/** A plain file name: no folders, so a sample URL can never name another key of the store. */
const SAMPLE_NAME = /^[a-z0-9][a-z0-9_-]*\.[a-z0-9]+$/;

export function isSampleName(name: string): boolean {
  return SAMPLE_NAME.test(name);
}

export function sampleKey(name: string): string {
  return `samples/${name}`;
}

export function samplesBaseUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/samples/`;
}

export async function readSampleCatalogue(dir = SAMPLES_DIR): Promise<SampleEntry[]> {
  const { samples } = JSON.parse(await readFile(join(dir, 'catalogue.json'), 'utf8')) as { samples: SampleEntry[] };
  return samples;
}

/**
 * Copies every catalogued sample whose stored copy is missing or different into the store. A start must not fail
 * over an example's input: a damaged sample file or a store that cannot be written is logged, and
 * `/samples/<name>` answers 404 for what is missing until a later start publishes it.
 */
export async function publishSamples(store: BlobStore, log: Logger, dir = SAMPLES_DIR): Promise<void> {
  let catalogue: SampleEntry[];
  try {
    catalogue = await readSampleCatalogue(dir);
  } catch (error) {
    log.warn({ err: error, dir }, 'no sample media catalogue: /samples/... will answer 404');
    return;
  }
  const written: string[] = [];
  for (const entry of catalogue) {
    try {
      if (!isSampleName(entry.name)) throw new Error(`${JSON.stringify(entry.name)} is not a plain file name`);
      const bytes = await readFile(join(dir, entry.name));
      if (sha256(bytes) !== entry.sha256) throw new Error(`the file does not match its catalogue entry (sha256 ${entry.sha256})`);
      if (await holds(store, entry.name, bytes)) continue;
      try {
        await store.put(sampleKey(entry.name), bytes, contentTypeForKey(entry.name));
      } catch (error) {
        // Processes starting together on one folder race to write the same bytes; the loser's rename may fail.
        if (!(await holds(store, entry.name, bytes))) throw error;
      }
      written.push(entry.name);
    } catch (error) {
      log.warn({ err: error, sample: entry.name }, 'sample media not published: its /samples/ URL will answer 404');
    }
  }
  if (written.length > 0) log.info({ samples: written }, 'sample media published to the blob store');
}

async function holds(store: BlobStore, name: string, bytes: Buffer): Promise<boolean> {
  const info = await store.stat(sampleKey(name));
  // Same size is not proof (a regenerated sample may keep its size): compare the bytes, at most a few hundred kB.
  return info?.size === bytes.length && (await store.readAll(sampleKey(name))).equals(bytes);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
