/**
 * Virtual camera moves over a still or a clip, rendered with ffmpeg's zoompan (zoom and pan) and
 * rotate (roll). Moves are eased with smoothstep so they start and stop softly.
 */
import type { FrameSize } from './frame-size.js';
import type { SeededRandom } from './seeded-random.js';

export interface CameraMove {
  /** Zoom factors, 1 = the whole (oversampled) source. */
  zoomFrom: number;
  zoomTo: number;
  /** Horizontal position of the view within the free travel: 0 left edge, 0.5 centred, 1 right. */
  xFrom: number;
  xTo: number;
  /** Vertical position of the view: 0 top, 1 bottom. */
  yFrom: number;
  yTo: number;
  /** Roll in degrees, positive clockwise. */
  rollFrom: number;
  rollTo: number;
}

/** `camera_control` fields as clients send them, each roughly -10..10. */
export interface CameraControl {
  pan?: number;
  tilt?: number;
  roll?: number;
  zoom?: number;
  horizontal?: number;
  vertical?: number;
}

export const STATIC_MOVE: CameraMove = { zoomFrom: 1, zoomTo: 1, xFrom: 0.5, xTo: 0.5, yFrom: 0.5, yTo: 0.5, rollFrom: 0, rollTo: 0 };

/** A camera-operator default for image-to-video: a slow push in with a slight drift. */
export function gentleDollyIn(random: SeededRandom): CameraMove {
  const drift = random.range(-0.25, 0.25);
  return { ...STATIC_MOVE, zoomFrom: 1, zoomTo: 1.18, xFrom: 0.5 - drift, xTo: 0.5 + drift };
}

const CONTROL_RANGE = 10;
const MAX_ZOOM_CHANGE = 0.6;
const MAX_ROLL_DEGREES = 18;

/**
 * Pan and horizontal (truck) both move the view sideways, tilt and vertical (pedestal) up and down:
 * a flat source has no parallax to tell rotation from translation.
 */
export function cameraMoveFromControl(control: CameraControl, scale = 1): CameraMove {
  const unit = (value: number | undefined): number => clampUnit(((value ?? 0) / CONTROL_RANGE) * scale);
  const sideways = clampUnit(unit(control.pan) + unit(control.horizontal));
  const upwards = clampUnit(unit(control.tilt) + unit(control.vertical));
  const zoom = unit(control.zoom);
  const roll = unit(control.roll) * MAX_ROLL_DEGREES;
  const zoomChange = Math.abs(zoom) * MAX_ZOOM_CHANGE;
  return {
    zoomFrom: zoom < 0 ? 1 + zoomChange : 1,
    zoomTo: zoom > 0 ? 1 + zoomChange : 1,
    xFrom: 0.5 - sideways / 2,
    xTo: 0.5 + sideways / 2,
    // Tilting up brings the upper part of the picture into view, so the window moves towards y = 0.
    yFrom: 0.5 + upwards / 2,
    yTo: 0.5 - upwards / 2,
    rollFrom: 0,
    rollTo: roll,
  };
}

const PRESETS: Record<string, CameraControl> = {
  zoom_in: { zoom: 6 },
  push_in: { zoom: 6 },
  dolly_in: { zoom: 4, vertical: 1 },
  zoom_out: { zoom: -6 },
  pull_out: { zoom: -6 },
  dolly_out: { zoom: -4, vertical: -1 },
  pan_left: { pan: -7 },
  pan_right: { pan: 7 },
  truck_left: { horizontal: -7 },
  truck_right: { horizontal: 7 },
  tilt_up: { tilt: 7 },
  tilt_down: { tilt: -7 },
  pedestal_up: { vertical: 7 },
  crane_up: { vertical: 6, zoom: -2 },
  pedestal_down: { vertical: -7 },
  crane_down: { vertical: -6, zoom: 2 },
  roll_left: { roll: -5 },
  roll_right: { roll: 5 },
  orbit: { pan: 7, roll: 1, zoom: 2 },
  orbit_left: { pan: -7, roll: -1, zoom: 2 },
  orbit_right: { pan: 7, roll: 1, zoom: 2 },
  static: {},
  none: {},
};

/** Names are matched loosely: `Zoom In`, `zoom-in` and `zoomIn` are the same preset. */
export function cameraMoveFromPreset(name: string, scale = 1): CameraMove | undefined {
  const key = name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const control = PRESETS[key];
  return control ? cameraMoveFromControl(control, scale) : undefined;
}

export interface CameraFilterOptions {
  size: FrameSize;
  fps: number;
  durationSeconds: number;
}

/**
 * The filter chain from an oversampled source (same aspect ratio as `size`) to `size`. The zoom
 * gets headroom so a pan has room to travel. A roll is rendered on a larger frame and cropped back
 * to `size`, so the rotated frame's corners never show.
 */
export function cameraMoveFilter(move: CameraMove, options: CameraFilterOptions): string {
  const frames = Math.max(2, Math.round(options.durationSeconds * options.fps));
  const progress = `min(on/${frames - 1},1)`;
  const eased = `(${progress}*${progress}*(3-2*${progress}))`;
  const travel = Math.max(Math.abs(move.xTo - move.xFrom), Math.abs(move.yTo - move.yFrom));
  const headroom = 1 + 0.35 * travel;
  const rolls = move.rollFrom !== 0 || move.rollTo !== 0;
  const cover = rolls ? rollCoverFactor(Math.max(Math.abs(move.rollFrom), Math.abs(move.rollTo)), options.size) : 1;
  const renderWidth = evenCeil(options.size.width * cover);
  const renderHeight = evenCeil(options.size.height * cover);
  const lerp = (from: number, to: number): string => `(${num(from)}+(${num(to - from)})*${eased})`;
  const zoompan =
    `zoompan=z='${lerp(move.zoomFrom * headroom, move.zoomTo * headroom)}'` +
    `:x='(iw-iw/zoom)*${lerp(clamp01(move.xFrom), clamp01(move.xTo))}'` +
    `:y='(ih-ih/zoom)*${lerp(clamp01(move.yFrom), clamp01(move.yTo))}'` +
    `:d=1:s=${renderWidth}x${renderHeight}:fps=${options.fps}`;
  if (!rolls) return zoompan;
  const rollProgress = `min(t/${num(options.durationSeconds)},1)`;
  const rollEased = `(${rollProgress}*${rollProgress}*(3-2*${rollProgress}))`;
  const angle = `(${num(move.rollFrom)}+(${num(move.rollTo - move.rollFrom)})*${rollEased})*PI/180`;
  return `${zoompan},rotate=a='${angle}':ow=${options.size.width}:oh=${options.size.height}:fillcolor=black`;
}

/** How much larger a frame must be so that, rotated by `degrees`, it still covers the output. */
function rollCoverFactor(degrees: number, size: FrameSize): number {
  if (degrees === 0) return 1;
  const radians = (degrees * Math.PI) / 180;
  const ratio = Math.max(size.width / size.height, size.height / size.width);
  return Math.abs(Math.cos(radians)) + Math.abs(Math.sin(radians)) * ratio;
}

function evenCeil(value: number): number {
  return Math.ceil(value / 2) * 2;
}

function clampUnit(value: number): number {
  return Math.max(-1, Math.min(1, value));
}

function clamp01(value: number): number {
  return Math.max(0, Math.min(1, value));
}

function num(value: number): string {
  return Number(value.toFixed(5)).toString();
}
