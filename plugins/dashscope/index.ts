/**
 * The `dashscope` provider (Alibaba Cloud Model Studio, https://www.alibabacloud.com/help/en/model-studio):
 * video.generate on the Wan models (wan-2.6, wan-2.7): prompt-only, first-frame, first-and-last-frame,
 * clip-continuation (wan-2.7) and reference runs, each an asynchronous DashScope task; image.generate on
 * qwen-image and image.edit on qwen-image-edit, each one synchronous call. Enabled when
 * `providers.dashscope.api_key` (or MEDIAGATE_PROVIDER_DASHSCOPE_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { dashScopeConfigSchema, isDashScopeEnabled, PROVIDER_ID, type DashScopeConfig } from './dashscope-vendor.js';
import { qwenImageEdit } from './qwen-image-edit.js';
import { qwenImageGenerate } from './qwen-image-generate.js';
import { videoExtend } from './video-extend.js';
import { videoGenerate } from './video-generate.js';

export type { DashScopeConfig } from './dashscope-vendor.js';

export default definePlugin<DashScopeConfig>({
  id: PROVIDER_ID,
  configSchema: dashScopeConfigSchema,
  isEnabled: isDashScopeEnabled,
  operations: {
    'video.generate': videoGenerate,
    'image.generate': qwenImageGenerate,
    'image.edit': qwenImageEdit,
    'video.extend': videoExtend,
  },
});
