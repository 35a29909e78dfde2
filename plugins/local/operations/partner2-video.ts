/**
 * The partner2 family (edit, remix, generate with characters), made from the media the request refers to.
 *
 * Edit and remix work on the referenced video: `source_video_url` when the client sends it (the manifest's
 * "hosted copy of the source video", which wins), otherwise the video `partner_video_id` names. The local
 * renderer answers every partner2 video it makes with a vendor-shaped `video_<16 hex>` id and records in its
 * library (library/local-library.ts) which hosted file that id is, so its own ids resolve; an id it did not
 * make (a vendor's, or one whose record or media is gone) fails the request, as the vendor answers an unknown
 * id, instead of editing some other video. Edit keeps the source's framing and grades it as the prompt's cues
 * ask (night, sunset, a season, a colour: media/colour-grade.ts); remix grades it and re-frames it with a
 * slow push-in. Both keep the source's sound and the words it carries, and draw the prompt as a caption at
 * the top (a clip of ours already has one at the bottom).
 *
 * generate_with_characters renders the prompt's scene and stands each character's source clip in it (keyed
 * off a plain backdrop, or framed: media/character-layer.ts). A character is found by its `char_…` id: one
 * created by the local partner2.character.create (its kept source, from the library) or a shipped sample clip
 * (the id is the start of the sample's SHA-256); an unknown character fails the request.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLES_DIR } from '../../../src/kernel/blobs/index.js';
import type { JsonObject, JsonValue, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readDuration, readString, readStringList } from '../input-fields.js';
import { resolveLocalConfig, type LocalContext, type LocalHandler } from '../local-config.js';
import { findCharacter, findVideo, rememberVideo } from '../library/local-library.js';
import { gentleDollyIn } from '../media/camera-move.js';
import { backdropPlate, characterBoxes, type CharacterLayer } from '../media/character-layer.js';
import { renderClip, type ClipAudio, type ClipBase } from '../media/clip-render.js';
import { gradeFromPrompt } from '../media/colour-grade.js';
import { parseAspectRatio, videoFrameSize, type AspectRatio, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, invalidInput, requireVideo, type DecodedVideo, type FetchedInput } from '../media/input-media.js';
import { readKnownWords, sampleCatalogue, type MediaWords } from '../media/media-words.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { writeSceneFrame } from '../media/still-frame.js';
import { CHARACTER_DIGEST_LENGTH } from './partner2-character.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

/** The family's shortest native duration. */
const DEFAULT_DURATION_SECONDS = 4;
/** The vendor's limit per request. */
const MAX_CHARACTERS = 2;
const VIDEO_ID_PREFIX = 'video_';

type Variant = 'edit' | 'remix';

function restyle(variant: Variant): LocalHandler {
  return {
    async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
      const prompt = readString(input, 'prompt');
      const source = await editSource(ctx, input);
      const size = partnerFrameSize(input, { width: source.decoded.video.width, height: source.decoded.video.height });
      const duration = readDuration(input, 'duration', source.decoded.durationSeconds);
      const scratchDir = await ctx.scratchDir();
      const base: ClipBase = {
        kind: 'video',
        videoPath: source.fetched.path,
        grade: gradeFromPrompt(prompt),
        move: variant === 'remix' ? gentleDollyIn(createRandom(seedFrom(variant, prompt))) : undefined,
      };
      const audio: ClipAudio | undefined = source.decoded.audio ? { kind: 'source' } : undefined;
      const known = await readKnownWords(ctx, source.fetched.path);
      // The sound is the source's, so are its spoken words; the picture now shows the edit's prompt.
      const words: MediaWords = { words: audio ? known?.words : undefined, prompt };
      const url = await render(ctx, { base, audio, size, duration, caption: prompt, captionPosition: 'top', words, scratchDir });
      return { done: await rememberedVideo(ctx, route, url, prompt, {}) };
    },
  };
}

export const partner2VideoEdit = restyle('edit');
export const partner2VideoRemix = restyle('remix');

export const partner2GenerateWithCharacters: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    const ids = characterIds(input);
    const duration = readDuration(input, 'duration', DEFAULT_DURATION_SECONDS);
    const size = partnerFrameSize(input, undefined);
    const scratchDir = await ctx.scratchDir();
    const clips = await Promise.all(ids.map((id, index) => characterClip(ctx, id, index, scratchDir)));
    const boxes = characterBoxes(size, clips.length, clips.map((clip) => clip.platePath !== undefined));
    const characters: CharacterLayer[] = clips.map((clip, index) => ({ videoPath: clip.path, platePath: clip.platePath, box: boxes[index] }));
    const seed = seedFrom(prompt, ...ids);
    const imagePath = join(scratchDir, 'scene.png');
    await writeSceneFrame({ seed, prompt }, size, imagePath);
    const base: ClipBase = { kind: 'still', imagePath, move: gentleDollyIn(createRandom(seed)) };
    const url = await render(ctx, { base, characters, size, duration, caption: prompt, words: { prompt }, scratchDir });
    return { done: await rememberedVideo(ctx, route, url, prompt, { duration }) };
  },
};

interface EditSource {
  fetched: FetchedInput;
  decoded: DecodedVideo;
}

async function editSource(ctx: LocalContext, input: JsonObject): Promise<EditSource> {
  const sourceUrl = readString(input, 'source_video_url');
  const videoId = readString(input, 'partner_video_id');
  let fetched: FetchedInput;
  if (sourceUrl) {
    fetched = await fetchInputToFile(ctx, sourceUrl, 'source_video_url');
  } else {
    const record = videoId ? await findVideo(ctx, videoId) : undefined;
    if (!record) {
      throw invalidInput(
        `partner_video_id ${videoId ?? '(none)'} is not a video the local renderer made on this gateway; ` +
          'send source_video_url with the hosted copy of the source video',
      );
    }
    fetched = await fetchInputToFile(ctx, record.url, 'partner_video_id');
  }
  return { fetched, decoded: await requireVideo(ctx, fetched) };
}

/** The finished output, its `video_…` id recorded so that later edits and remixes can name it. */
async function rememberedVideo(ctx: LocalContext, route: RoutedModel, url: string, prompt: string | undefined, fields: JsonObject): Promise<JsonObject> {
  const output = finishedAsset('video', route, { video_url: url, ...fields }, { taskIdPrefix: VIDEO_ID_PREFIX });
  try {
    await rememberVideo(ctx, String(output.task_id), { url, ...(prompt ? { prompt } : {}) });
  } catch (error) {
    // The video is made and hosted; only later edits by its id will not find it (they can send source_video_url).
    ctx.log.warn({ requestId: ctx.requestId, err: error instanceof Error ? error.message : String(error) }, 'local library could not record a partner2 video id');
  }
  return output;
}

/**
 * 720p unless 1080p is asked for; the asked aspect ratio, else the source's orientation (the manifest: "the
 * source's shape when omitted"), else landscape.
 */
function partnerFrameSize(input: JsonObject, source: FrameSize | undefined): FrameSize {
  const sourceShape: AspectRatio | undefined = source && (source.height > source.width ? { width: 9, height: 16 } : { width: 16, height: 9 });
  const aspect = parseAspectRatio(readString(input, 'aspect_ratio')) ?? sourceShape ?? { width: 16, height: 9 };
  return videoFrameSize(aspect, readString(input, 'resolution'));
}

interface RenderRequest {
  base: ClipBase;
  audio?: ClipAudio;
  characters?: CharacterLayer[];
  size: FrameSize;
  duration: number;
  caption?: string;
  captionPosition?: 'top' | 'bottom';
  words: MediaWords;
  scratchDir: string;
}

async function render(ctx: LocalContext, request: RenderRequest): Promise<string> {
  const outPath = join(request.scratchDir, 'partner-video.mp4');
  await renderClip({
    base: request.base,
    audio: request.audio,
    characters: request.characters,
    size: request.size,
    fps: resolveLocalConfig(ctx.config).videoFps,
    durationSeconds: request.duration,
    caption: request.caption,
    captionPosition: request.captionPosition,
    words: request.words,
    outPath,
    scratchDir: request.scratchDir,
    signal: ctx.signal,
  });
  return hostMp4(ctx, outPath);
}

interface CharacterClip {
  path: string;
  platePath?: string;
}

async function characterClip(ctx: LocalContext, id: string, index: number, scratchDir: string): Promise<CharacterClip> {
  const field = `character ${id}`;
  const record = await findCharacter(ctx, id);
  let path: string;
  if (record) {
    path = (await fetchInputToFile(ctx, record.url, field)).path;
  } else {
    const sample = await sampleCharacter(id);
    if (!sample) {
      throw invalidInput(`${field} is unknown to the local renderer: create it with partner2.character.create on this gateway`);
    }
    path = join(scratchDir, `character-${index}-${sample}`);
    await copyFile(join(SAMPLES_DIR, sample), path);
  }
  await requireVideo(ctx, { field, url: id, path, contentType: 'video/mp4', extension: 'mp4' });
  return { path, platePath: await backdropPlate(path, scratchDir, `character-${index}`, ctx.signal) };
}

/** The shipped sample video whose SHA-256 the id starts with (as a character made from it would be named). */
async function sampleCharacter(id: string): Promise<string | undefined> {
  const samples = await sampleCatalogue();
  return samples.find((sample) => sample.name.endsWith('.mp4') && id === `char_${sample.sha256.slice(0, CHARACTER_DIGEST_LENGTH)}`)?.name;
}

/** Character references arrive as ids (`char_…`) or as objects with an id; at most two count. */
function characterIds(input: JsonObject): string[] {
  const ids = [...readStringList(input, 'partner_cameos'), ...idsOf(input.partner_characters), ...readStringList(input, 'characters')];
  return [...new Set(ids)].slice(0, MAX_CHARACTERS);
}

function idsOf(value: JsonValue | undefined): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (typeof item === 'string') return [item];
    if (item && typeof item === 'object' && !Array.isArray(item) && typeof item.id === 'string') return [item.id];
    return [];
  });
}
