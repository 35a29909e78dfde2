/**
 * The API token Kling expects in `Authorization: Bearer <token>`: a JWT (RFC 7519) signed HS256 with the
 * SecretKey, `iss` = AccessKey, valid for 30 minutes from 5 seconds ago (the skew allowance Kling's own
 * sample uses). https://app.klingai.com/global/dev/document-api/apiReference/commonInfo
 * Made with node:crypto because three base64url segments and one HMAC do not justify a JWT package.
 */
import { createHmac } from 'node:crypto';

const LIFETIME_SECONDS = 1800;
const CLOCK_SKEW_SECONDS = 5;
// Exactly the header of Kling's sample; `typ` is spelled out because some JWT libraries leave it out.
const HEADER = { alg: 'HS256', typ: 'JWT' };

export function signKlingToken(accessKey: string, secretKey: string, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const payload = { iss: accessKey, exp: now + LIFETIME_SECONDS, nbf: now - CLOCK_SKEW_SECONDS };
  const unsigned = `${base64url(HEADER)}.${base64url(payload)}`;
  const signature = createHmac('sha256', secretKey).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
