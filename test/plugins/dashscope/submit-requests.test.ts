/**
 * The request each kind of Wan run sends: endpoint, model variant and body, as the API reference pages show
 * them; and the runs refused before anything is sent.
 */
import { expect } from 'chai';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { expectRefusedBeforeSending } from '../../support/vendor-conformance.js';
import { created, KEYFRAME_PATH, SUBMIT_PATH, submitApi, TASK_ID, useDashScopeHarness } from './dashscope-test-kit.js';

const OPERATION = 'video.generate';
const FIRST = 'https://example.com/inputs/first.png';
const LAST = 'https://example.com/inputs/last.png';
const CLIP = 'https://example.com/inputs/opening.mp4';
const VOICE = 'https://example.com/inputs/voice.mp3';
const REF_A = 'https://example.com/inputs/cat.png';
const REF_B = 'https://example.com/inputs/room.png';

describe('dashscope plugin: video.generate requests', () => {
  const harness = useDashScopeHarness();

  /** Submits `input` and expects exactly `body` at `path`, and the state the output will need. */
  async function expectSubmit(model: string, input: JsonObject, path: string, body: JsonObject, state: JsonObject): Promise<void> {
    const api = submitApi().post(path, body).reply(200, created());

    const result = await harness().start(OPERATION, { model, ...input }, model);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state } });
    expect(api.isDone()).to.equal(true);
  }

  describe('wan-2.7', () => {
    it('prompt-only: wan2.7-t2v with tier and ratio, reference audio as input.audio_url, the watermark as asked', async () => {
      await expectSubmit(
        'wan-2.7',
        {
          prompt: 'a paper boat drifting down a rain gutter, close-up',
          negative_prompt: 'low quality, blurry',
          audio_url: VOICE,
          duration: 8,
          resolution: '720p',
          aspect_ratio: '9:16',
          prompt_extend: false,
          watermark: true,
          seed: 42,
          nsfw_checker: true,
        },
        SUBMIT_PATH,
        {
          model: 'wan2.7-t2v',
          input: { prompt: 'a paper boat drifting down a rain gutter, close-up', negative_prompt: 'low quality, blurry', audio_url: VOICE },
          parameters: { resolution: '720P', ratio: '9:16', duration: 8, prompt_extend: false, watermark: true, seed: 42 },
        },
        { model: 'wan2.7-t2v', duration: 8, aspect_ratio: '9:16' },
      );
    });

    it('first frame: wan2.7-i2v with the frame as media first_frame, no ratio (the clip keeps the frame\'s shape), no watermark unless asked', async () => {
      await expectSubmit(
        'wan-2.7',
        { prompt: 'the turtle swims up', image_url: FIRST, duration: 5, resolution: '1080p' },
        SUBMIT_PATH,
        {
          model: 'wan2.7-i2v',
          input: { prompt: 'the turtle swims up', media: [{ type: 'first_frame', url: FIRST }] },
          parameters: { resolution: '1080P', duration: 5, watermark: false },
        },
        { model: 'wan2.7-i2v', duration: 5, aspect_ratio: '16:9' },
      );
    });

    it('first and last frame: the same model with first_frame and last_frame media (first_frame_url / end_image_url spellings)', async () => {
      await expectSubmit(
        'wan-2.7',
        { prompt: 'a kitten looks up at the sky', first_frame_url: FIRST, end_image_url: LAST, duration: 10 },
        SUBMIT_PATH,
        {
          model: 'wan2.7-i2v',
          input: { prompt: 'a kitten looks up at the sky', media: [{ type: 'first_frame', url: FIRST }, { type: 'last_frame', url: LAST }] },
          parameters: { duration: 10, watermark: false },
        },
        { model: 'wan2.7-i2v', duration: 10, aspect_ratio: '16:9' },
      );
    });

    it('clip continuation: first_clip_url as media first_clip, with an optional last frame', async () => {
      await expectSubmit(
        'wan-2.7',
        { prompt: 'the chase goes on', first_clip_url: CLIP, last_frame_url: LAST, duration: 12 },
        SUBMIT_PATH,
        {
          model: 'wan2.7-i2v',
          input: { prompt: 'the chase goes on', media: [{ type: 'first_clip', url: CLIP }, { type: 'last_frame', url: LAST }] },
          parameters: { duration: 12, watermark: false },
        },
        { model: 'wan2.7-i2v', duration: 12, aspect_ratio: '16:9' },
      );
    });

    it('reference: wan2.7-r2v with the video and images as media (videos first), the reference audio as input.reference_voice', async () => {
      await expectSubmit(
        'wan-2.7',
        { prompt: 'Video 1 holds Image 1 in Image 2', source_video_url: CLIP, reference_image_urls: [REF_A, REF_B], audio_url: VOICE, aspect_ratio: '1:1', resolution: '720p', duration: 6 },
        SUBMIT_PATH,
        {
          model: 'wan2.7-r2v',
          input: {
            prompt: 'Video 1 holds Image 1 in Image 2',
            reference_voice: VOICE,
            media: [
              { type: 'reference_video', url: CLIP },
              { type: 'reference_image', url: REF_A },
              { type: 'reference_image', url: REF_B },
            ],
          },
          parameters: { resolution: '720P', ratio: '1:1', duration: 6, watermark: false },
        },
        { model: 'wan2.7-r2v', duration: 6, aspect_ratio: '1:1' },
      );
    });

    it('reference with a first frame: the frame joins the media as first_frame', async () => {
      await expectSubmit(
        'wan-2.7',
        { prompt: 'Image 1 walks in', reference_image_urls: [REF_A], image_url: FIRST },
        SUBMIT_PATH,
        {
          model: 'wan2.7-r2v',
          input: { prompt: 'Image 1 walks in', media: [{ type: 'reference_image', url: REF_A }, { type: 'first_frame', url: FIRST }] },
          parameters: { watermark: false },
        },
        { model: 'wan2.7-r2v', duration: 5, aspect_ratio: '16:9' },
      );
    });
  });

  describe('wan-2.6', () => {
    it('prompt-only: wan2.6-t2v with the exact pixel size for shape and tier', async () => {
      await expectSubmit(
        'wan-2.6',
        { prompt: 'a detective walks in the rain', duration: 10, resolution: '720p', aspect_ratio: '4:3', audio_url: VOICE },
        SUBMIT_PATH,
        {
          model: 'wan2.6-t2v',
          input: { prompt: 'a detective walks in the rain', audio_url: VOICE },
          parameters: { size: '1088*832', duration: 10, watermark: false },
        },
        { model: 'wan2.6-t2v', duration: 10, aspect_ratio: '4:3' },
      );
    });

    it('prompt-only without a shape or tier: 1920*1080, the vendor\'s defaults', async () => {
      await expectSubmit(
        'wan-2.6',
        { prompt: 'clouds over a ridge' },
        SUBMIT_PATH,
        { model: 'wan2.6-t2v', input: { prompt: 'clouds over a ridge' }, parameters: { size: '1920*1080', watermark: false } },
        { model: 'wan2.6-t2v', duration: 5, aspect_ratio: '16:9' },
      );
    });

    it('first frame: wan2.6-i2v with the frame as input.img_url and a resolution tier', async () => {
      await expectSubmit(
        'wan-2.6',
        { prompt: 'the graffiti boy raps', first_frame_url: FIRST, duration: 15, resolution: '1080p', seed: 12345, prompt_extend: true },
        SUBMIT_PATH,
        {
          model: 'wan2.6-i2v',
          input: { prompt: 'the graffiti boy raps', img_url: FIRST },
          parameters: { resolution: '1080P', duration: 15, prompt_extend: true, watermark: false, seed: 12345 },
        },
        { model: 'wan2.6-i2v', duration: 15, aspect_ratio: '16:9' },
      );
    });

    it('first and last frame: the kf2v endpoint with wan2.2-kf2v-flash, the frames as first_frame_url / last_frame_url, no duration (5 s fixed)', async () => {
      await expectSubmit(
        'wan-2.6',
        { prompt: 'a blue monster looks up', image_url: FIRST, last_frame_url: LAST, duration: 5, resolution: '720p' },
        KEYFRAME_PATH,
        {
          model: 'wan2.2-kf2v-flash',
          input: { prompt: 'a blue monster looks up', first_frame_url: FIRST, last_frame_url: LAST },
          parameters: { resolution: '720P', watermark: false },
        },
        { model: 'wan2.2-kf2v-flash', duration: 5, aspect_ratio: '16:9' },
      );
    });

    it('reference images: wan2.6-r2v with input.reference_urls and a pixel size', async () => {
      await expectSubmit(
        'wan-2.6',
        { prompt: 'character1 sits in character2', reference_image_urls: [REF_A, REF_B], aspect_ratio: '9:16', resolution: '720p', duration: 10 },
        SUBMIT_PATH,
        {
          model: 'wan2.6-r2v',
          input: { prompt: 'character1 sits in character2', reference_urls: [REF_A, REF_B] },
          parameters: { size: '720*1280', duration: 10, watermark: false },
        },
        { model: 'wan2.6-r2v', duration: 10, aspect_ratio: '9:16' },
      );
    });
  });

  describe('runs refused before anything is sent (permanent)', () => {
    const cases: { name: string; model: string; input: JsonObject; message: string }[] = [
      {
        name: 'frames with reference audio (spec rule), whatever the spelling',
        model: 'wan-2.7',
        input: { prompt: 'p', end_image_url: LAST, first_frame_url: FIRST, audio_url: VOICE },
        message:
          'dashscope: Wan cannot combine frame guidance (image_url, first_frame_url, last_frame_url, end_image_url) with reference audio_url: drop audio_url, or drop the frames for a prompt-first or reference-video run',
      },
      {
        name: 'a first frame with reference audio on wan-2.6',
        model: 'wan-2.6',
        input: { prompt: 'p', image_url: FIRST, audio_url: VOICE },
        message:
          'dashscope: Wan cannot combine frame guidance (image_url, first_frame_url, last_frame_url, end_image_url) with reference audio_url: drop audio_url, or drop the frames for a prompt-first or reference-video run',
      },
      { name: 'a wan-2.6 first-and-last-frame run longer than 5 s', model: 'wan-2.6', input: { prompt: 'p', image_url: FIRST, last_frame_url: LAST, duration: 10 }, message: 'dashscope: a wan-2.6 first-and-last-frame run renders 5 seconds only (wan2.2-kf2v-flash); ask for duration 5, or use wan-2.7' },
      { name: 'reference audio on a wan-2.6 reference run', model: 'wan-2.6', input: { prompt: 'p', reference_image_urls: [REF_A], audio_url: VOICE }, message: 'dashscope: a wan-2.6 reference run cannot take audio_url' },
      { name: 'a last frame on a reference run', model: 'wan-2.7', input: { prompt: 'p', reference_image_urls: [REF_A], first_frame_url: FIRST, last_frame_url: LAST }, message: 'dashscope: a wan-2.7 reference run cannot take last_frame_url' },
      { name: 'a clip continuation on wan-2.6', model: 'wan-2.6', input: { prompt: 'p', first_clip_url: CLIP }, message: 'dashscope: wan-2.6 has no clip-continuation run' },
      { name: 'a last frame without a first one', model: 'wan-2.7', input: { prompt: 'p', last_frame_url: LAST }, message: 'dashscope: a wan-2.7 prompt-only run cannot take last_frame_url' },
    ];

    for (const { name, model, input, message } of cases) {
      it(name, async () => {
        const anySubmit = submitApi().post(/.*/).reply(200, created());

        await expectRefusedBeforeSending(harness().start(OPERATION, { model, ...input }, model), message, anySubmit);
      });
    }
  });
});
