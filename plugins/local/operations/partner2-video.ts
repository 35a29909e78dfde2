/**
 * The partner2 family (edit, remix, generate with characters). Edit and remix restyle the source
 * clip when one is given (edit grades its colour, remix also mirrors it) and otherwise render a new
 * clip; both keep the source's audio. Task ids take the vendor's `video_<id>` shape because clients
 * feed them back as `partner_video_id`.
 */
import { join } from 'node:path';
import type { JsonObject, JsonValue, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readDuration, readString, readStringList } from '../input-fields.js';
import { resolveLocalConfig, type LocalContext, type LocalHandler } from '../local-config.js';
import { gentleDollyIn } from '../media/camera-move.js';
import { renderClip, type ClipAudio, type ClipBase, type ClipLook } from '../media/clip-render.js';
import { parseAspectRatio, videoFrameSize, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, requireVideo } from '../media/input-media.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { writeSceneFrame } from '../media/still-frame.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

/** The family's shortest native duration. */
const DEFAULT_DURATION_SECONDS = 4;

type Variant = 'edit' | 'remix';

function restyle(variant: Variant): LocalHandler {
  return {
    async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
      const prompt = readString(input, 'prompt');
      const size = partnerFrameSize(input);
      const scratchDir = await ctx.scratchDir();
      const seed = seedFrom(variant, prompt, readString(input, 'partner_video_id'));
      const sourceUrl = readString(input, 'source_video_url');
      let base: ClipBase;
      let audio: ClipAudio | undefined;
      let duration: number;
      if (sourceUrl) {
        const source = await fetchInputToFile(ctx, sourceUrl, 'source_video_url');
        const decoded = await requireVideo(ctx, source);
        duration = readDuration(input, 'duration', decoded.durationSeconds);
        base = { kind: 'video', videoPath: source.path, look: lookFor(variant, seed) };
        audio = decoded.audio ? { kind: 'source' } : undefined;
      } else {
        duration = readDuration(input, 'duration', DEFAULT_DURATION_SECONDS);
        base = await sceneBase(seed, size, scratchDir);
      }
      const url = await render(ctx, { base, audio, size, duration, caption: prompt, scratchDir });
      return { done: finishedAsset('video', route, { video_url: url }, { taskIdPrefix: 'video_' }) };
    },
  };
}

export const partner2VideoEdit = restyle('edit');
export const partner2VideoRemix = restyle('remix');

export const partner2GenerateWithCharacters: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    const characters = characterLabels(input);
    const duration = readDuration(input, 'duration', DEFAULT_DURATION_SECONDS);
    const size = partnerFrameSize(input);
    const scratchDir = await ctx.scratchDir();
    const base = await sceneBase(seedFrom(prompt, ...characters), size, scratchDir);
    const caption = [prompt, characters.length > 0 ? `[${characters.join(', ')}]` : undefined].filter(Boolean).join(' ');
    const url = await render(ctx, { base, size, duration, caption: caption || undefined, scratchDir });
    return {
      done: finishedAsset('video', route, { video_url: url, duration }, { taskIdPrefix: 'video_' }),
    };
  },
};

/** Landscape 16:9 unless asked otherwise; 720p unless 1080p is asked for. */
function partnerFrameSize(input: JsonObject): FrameSize {
  const aspect = parseAspectRatio(readString(input, 'aspect_ratio')) ?? { width: 16, height: 9 };
  return videoFrameSize(aspect, readString(input, 'resolution'));
}

function lookFor(variant: Variant, seed: number): ClipLook {
  const random = createRandom(seed);
  return variant === 'edit'
    ? { hueDegrees: random.range(-60, 60), saturation: 1.25, mirror: false }
    : { hueDegrees: random.range(120, 240), saturation: 0.9, mirror: true };
}

async function sceneBase(seed: number, size: FrameSize, scratchDir: string): Promise<ClipBase> {
  const imagePath = join(scratchDir, 'scene.png');
  await writeSceneFrame(seed, size, imagePath);
  return { kind: 'still', imagePath, move: gentleDollyIn(createRandom(seed)) };
}

interface RenderRequest {
  base: ClipBase;
  audio?: ClipAudio;
  size: FrameSize;
  duration: number;
  caption?: string;
  scratchDir: string;
}

async function render(ctx: LocalContext, request: RenderRequest): Promise<string> {
  const outPath = join(request.scratchDir, 'partner-video.mp4');
  await renderClip({
    base: request.base,
    audio: request.audio,
    size: request.size,
    fps: resolveLocalConfig(ctx.config).videoFps,
    durationSeconds: request.duration,
    caption: request.caption,
    outPath,
    scratchDir: request.scratchDir,
    signal: ctx.signal,
  });
  return hostMp4(ctx, outPath);
}

/** Character references arrive as ids (`char_…`) or as objects with a name or id; at most two count. */
function characterLabels(input: JsonObject): string[] {
  const labels = [
    ...readStringList(input, 'partner_cameos'),
    ...labelsOf(input.partner_characters),
    ...labelsOf(input.characters),
  ];
  return [...new Set(labels)].slice(0, 2);
}

function labelsOf(value: JsonValue | undefined): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (typeof item === 'string') return [item];
    if (item && typeof item === 'object' && !Array.isArray(item)) {
        const label = item.name ?? item.id;
        return typeof label === 'string' ? [label] : [];
    }
    return [];
  });
}
