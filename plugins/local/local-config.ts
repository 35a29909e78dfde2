/**
 * Settings of the `local` provider (`providers.local` in config). Everything it needs is bundled in
 * npm packages, so the knobs are safety and speed limits and where it keeps its library.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export interface LocalConfig {
  /**
   * Whether the offline provider serves requests (default true). Production deployments that must never
   * answer with synthetic media switch it off; requests then need a configured vendor.
   */
  enabled?: boolean;
  /** Largest input file (image, video, audio) the plugin reads into memory. */
  maxInputBytes?: number;
  /** Frame rate of rendered videos; kept modest because every test renders real clips. */
  videoFps?: number;
  /**
   * Folder of the local library (library/local-library.ts): which hosted video each partner2 `video_…` id
   * names and which source clip each `char_…` character was made from. Processes that should find each
   * other's ids share it. Default: the plugin's state folder, `<data_dir>/plugins/local` (`ctx.stateDir()`), which
   * lasts as long as the gateway's data (an OS temporary folder may be emptied under it at the next boot).
   */
  libraryDir?: string;
  /**
   * Renders (every operation but the text-only prompt ones) that run at once in one process (render-slots.ts); the
   * worker's `concurrency` may be higher, its other starts then wait for a slot.
   */
  renders?: number;
}

export interface ResolvedLocalConfig {
  maxInputBytes: number;
  videoFps: number;
  /** Undefined: the plugin's state folder. */
  libraryDir?: string;
  renders: number;
}

export const DEFAULT_MAX_INPUT_BYTES = 100 * 1024 * 1024;
export const DEFAULT_VIDEO_FPS = 12;
export const DEFAULT_RENDERS = 2;

export const localConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean', default: true },
    maxInputBytes: { type: 'integer', minimum: 1024, default: DEFAULT_MAX_INPUT_BYTES },
    videoFps: { type: 'integer', minimum: 1, maximum: 60, default: DEFAULT_VIDEO_FPS },
    libraryDir: { type: 'string', minLength: 1 },
    renders: { type: 'integer', minimum: 1, default: DEFAULT_RENDERS },
  },
};

/** The kernel applies schema defaults, but handlers are also called with a bare `{}` in tests. */
export function resolveLocalConfig(config: LocalConfig | undefined): ResolvedLocalConfig {
  return {
    maxInputBytes: config?.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
    videoFps: config?.videoFps ?? DEFAULT_VIDEO_FPS,
    libraryDir: config?.libraryDir,
    renders: config?.renders ?? DEFAULT_RENDERS,
  };
}

export type LocalContext = PluginContext<LocalConfig>;
export type LocalHandler = OperationHandler<LocalConfig>;

export const PROVIDER_ID = 'local';
