/**
 * What the google tests share: credentials, the Gemini API host with its key header required, and bodies
 * shaped like Google's reference (https://ai.google.dev/api/generate-content) and live captures of image
 * model answers.
 */
import nock from 'nock';

export const API = 'https://generativelanguage.googleapis.com';
export const API_KEY = 'AIza-test-not-real';
export const CONFIG = { api_key: API_KEY };
/** Where the tests' input images live; the failure suite recognises input interceptors by `/inputs/`. */
export const INPUTS = 'https://images.example';

export const PRO_PATH = '/v1beta/models/gemini-3-pro-image:generateContent';
export const FLASH_PATH = '/v1beta/models/gemini-2.5-flash-image:generateContent';

/** The Gemini API with the key header required on every call. */
export function geminiApi(): nock.Scope {
  return nock(API, { reqheaders: { 'x-goog-api-key': API_KEY } });
}

/** A type alias, not an interface, so that nock accepts it inside a body matcher. */
export type InlinePart = { inlineData: { mimeType: string; data: string } };

export function inlineImage(bytes: Buffer, mimeType = 'image/png'): InlinePart {
  return { inlineData: { mimeType, data: bytes.toString('base64') } };
}

/** A GenerateContentResponse with one finished candidate holding `parts`. */
export function generateContentResponse(parts: object[], responseId = 'deO6aLeTE4fYvdIPuIm_kQQ'): Record<string, unknown> {
  return {
    candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 17, candidatesTokenCount: 1290, totalTokenCount: 1307, candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }] },
    modelVersion: 'gemini-3-pro-image',
    responseId,
  };
}

/** Google's documented 400 for a bad key (https://ai.google.dev/gemini-api/docs/troubleshooting). */
export const API_KEY_INVALID = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }],
  },
};
