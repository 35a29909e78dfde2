/**
 * What the local renderer remembers between requests, so that the ids it hands out keep working the way the
 * vendor's do:
 * - each partner2 video it made, by the `video_…` id it answered with: partner2.video.edit and remix name
 *   their source by that id (`partner_video_id`), and the record gives the hosted video's URL;
 * - each character it created, by its `char_…` id: generate_with_characters puts the character's source
 *   clip (a copy hosted when the character was created) into the new video.
 *
 * The plugin contract gives a plugin no keyed storage (hosted files get fresh keys, and there is no lookup of
 * the requests that made them), so the records are small JSON files in its state folder (or `libraryDir`),
 * written atomically; the media stays in the gateway's storage under its retention. Processes sharing the
 * folder (an embedded gateway and its workers on one machine) find each other's ids; an id made elsewhere,
 * or whose media retention removed, is reported as unknown, never replaced by something else.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveLocalConfig, type LocalContext } from '../local-config.js';

export interface VideoRecord {
  /** Hosted URL of the video. */
  url: string;
  prompt?: string;
}

export interface CharacterRecord {
  name: string;
  /** Hosted copy of the source clip. */
  url: string;
}

type Shelf = 'videos' | 'characters';

/** Ids as the manifests shape them; anything else never names a file. */
const ID = /^(video|char)_[A-Za-z0-9_-]{1,120}$/;

export function rememberVideo(ctx: LocalContext, id: string, record: VideoRecord): Promise<void> {
  return write(ctx, 'videos', id, record);
}

export function findVideo(ctx: LocalContext, id: string): Promise<VideoRecord | undefined> {
  return read<VideoRecord>(ctx, 'videos', id);
}

export function rememberCharacter(ctx: LocalContext, id: string, record: CharacterRecord): Promise<void> {
  return write(ctx, 'characters', id, record);
}

export function findCharacter(ctx: LocalContext, id: string): Promise<CharacterRecord | undefined> {
  return read<CharacterRecord>(ctx, 'characters', id);
}

async function write(ctx: LocalContext, shelf: Shelf, id: string, record: VideoRecord | CharacterRecord): Promise<void> {
  if (!ID.test(id)) throw new Error(`local library: ${id} is not an id it keeps`);
  const dir = await shelfDir(ctx, shelf);
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${id}.${randomBytes(4).toString('hex')}.tmp`);
  // Written aside and renamed: a reader never sees half a record, and two writers of one id both leave a whole one.
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, join(dir, `${id}.json`));
}

async function read<Entry>(ctx: LocalContext, shelf: Shelf, id: string): Promise<Entry | undefined> {
  if (!ID.test(id)) return undefined;
  try {
    return JSON.parse(await readFile(join(await shelfDir(ctx, shelf), `${id}.json`), 'utf8')) as Entry;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function shelfDir(ctx: LocalContext, shelf: Shelf): Promise<string> {
  return join(resolveLocalConfig(ctx.config).libraryDir ?? (await ctx.stateDir()), shelf);
}
