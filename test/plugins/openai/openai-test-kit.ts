/**
 * What the openai tests share: credentials, the API host with its auth header required, and response bodies
 * shaped like the examples of OpenAI's API reference.
 */
import nock from 'nock';

export const API = 'https://api.openai.com';
export const API_KEY = 'sk-test-not-real';
export const CONFIG = { api_key: API_KEY };
/** Where the tests' input images live; the failure suite recognises input interceptors by `/inputs/`. */
export const INPUTS = 'https://images.example';

/** OpenAI's API with the Bearer key required on every call. */
export function openAIApi(base = API): nock.Scope {
  return nock(base, { reqheaders: { authorization: `Bearer ${API_KEY}` } });
}

/** A chat completion (https://platform.openai.com/docs/api-reference/chat/object). */
export function chatCompletion(content: string | null, refusal: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    object: 'chat.completion',
    created: 1741569952,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
    service_tier: 'default',
  };
}

/** An ImagesResponse of a GPT image model (https://platform.openai.com/docs/api-reference/images/object). */
export function imagesResponse(images: Buffer[], outputFormat = 'png'): Record<string, unknown> {
  return {
    created: 1713833628,
    data: images.map((image) => ({ b64_json: image.toString('base64') })),
    background: 'opaque',
    output_format: outputFormat,
    quality: 'low',
    size: '1024x1024',
    usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50, input_tokens_details: { text_tokens: 10, image_tokens: 40 } },
  };
}

/** A documented 400 of the images API. */
export const MODERATION_BLOCKED = {
  error: {
    message: 'Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.',
    type: 'image_generation_user_error',
    param: null,
    code: 'moderation_blocked',
  },
};

/** A documented 401. */
export const INVALID_API_KEY = {
  error: {
    message: 'Incorrect API key provided: sk-test-***-real. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};
