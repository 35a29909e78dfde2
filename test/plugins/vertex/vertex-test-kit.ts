/**
 * What the vertex tests share: a service-account key file made from a key pair generated for this run (never a
 * real key), the Vertex AI and OAuth hosts, a token endpoint that records the assertions it receives, and bodies
 * shaped like Google's references: the Imagen predict request and `VisionGenerativeModelResult`
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/Shared.Types/VisionGenerativeModelResult),
 * the token response of https://developers.google.com/identity/protocols/oauth2/service-account.
 */
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import nock from 'nock';

export const PROJECT = 'mediagate-imagen-test';
export const CLIENT_EMAIL = `imagen-caller@${PROJECT}.iam.gserviceaccount.com`;
export const API = 'https://us-central1-aiplatform.googleapis.com';
export const OAUTH = 'https://oauth2.googleapis.com';
export const PREDICT_PATH = `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/imagen-4.0-generate-001:predict`;
export const ROUTE = { model: 'imagen-4', vendorModel: 'imagen-4.0-generate-001', publicName: 'imagen-4' };

const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const PUBLIC_KEY: KeyObject = pair.publicKey;
export const PRIVATE_KEY_PEM = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The fields of a key file as the Cloud console downloads it. */
export const KEY_FILE = {
  type: 'service_account',
  project_id: PROJECT,
  private_key_id: '3f0c1e4a5b6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f',
  private_key: PRIVATE_KEY_PEM,
  client_email: CLIENT_EMAIL,
  client_id: '104720293847561029384',
  auth_uri: 'https://accounts.google.com/o/oauth2/auth',
  token_uri: 'https://oauth2.googleapis.com/token',
  auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
  client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/imagen-caller%40${PROJECT}.iam.gserviceaccount.com`,
  universe_domain: 'googleapis.com',
};

export const CONFIG = { project_id: PROJECT, credentials_json: JSON.stringify(KEY_FILE) };

/** One assertion as the token endpoint received it. */
export interface ReceivedAssertion {
  grantType: unknown;
  header: unknown;
  claims: { iss: string; scope: string; aud: string; iat: number; exp: number };
  /** Whether the signature verifies (RS256) with the test key pair's public key. */
  signedByTestKey: boolean;
}

export function readAssertion(grantType: unknown, jwt: string): ReceivedAssertion {
  const [header, claims, signature] = jwt.split('.');
  const signedByTestKey = verify('sha256', Buffer.from(`${header}.${claims}`), PUBLIC_KEY, Buffer.from(signature ?? '', 'base64url'));
  return { grantType, header: decode(header), claims: decode(claims) as ReceivedAssertion['claims'], signedByTestKey };
}

function decode(segment: string | undefined): unknown {
  return JSON.parse(Buffer.from(segment ?? '', 'base64url').toString());
}

/**
 * The token endpoint for one exchange (or, `persist`ed, for every one), form-encoded as Google requires; every
 * assertion it is sent lands in `received`, for the test to check.
 */
export function tokenExchange(received: ReceivedAssertion[] = [], options: { persist?: boolean } = {}): nock.Interceptor {
  const scope = nock(OAUTH);
  if (options.persist) scope.persist();
  return scope
    .post('/token', (body: unknown) => {
      // nock hands a form body over parsed when it can, as text otherwise.
      const form = typeof body === 'string' ? Object.fromEntries(new URLSearchParams(body)) : (body as Record<string, unknown>);
      received.push(readAssertion(form.grant_type, String(form.assertion)));
      return true;
    })
    .matchHeader('content-type', 'application/x-www-form-urlencoded');
}

/** Google's answer to a good assertion (access tokens last an hour; Google reports 3599 s). */
export function tokenResponse(accessToken: string, expiresIn = 3599): Record<string, unknown> {
  return { access_token: accessToken, expires_in: expiresIn, token_type: 'Bearer' };
}

/** Vertex AI with the bearer token required. */
export function vertexApi(accessToken: string, host = API): nock.Scope {
  return nock(host, { reqheaders: { authorization: `Bearer ${accessToken}` } });
}

/** A predict response with one prediction per image; the rewritten `prompt` is what enhancePrompt adds. */
export function predictResponse(images: Array<{ bytes: Buffer; mimeType?: string }>): Record<string, unknown> {
  return { predictions: images.map(({ bytes, mimeType = 'image/png' }) => ({ mimeType, prompt: 'A detailed rendering of the requested scene.', bytesBase64Encoded: bytes.toString('base64') })) };
}

/** Vertex's 400 for a prompt its safety filter refuses, as a user reported it (google-marketing-solutions/adios#62). */
export const PROMPT_BLOCKED = {
  error: {
    code: 400,
    message: 'Image generation failed with the following error: The prompt could not be submitted. Your current safety filter threshold prohibited one or more words in this prompt. If you think this was an error, send feedback. Support codes: 61493863',
    status: 'INVALID_ARGUMENT',
  },
};

/** Google's 401 for a token it does not accept (the message as googleapis/java-aiplatform#1056 shows it). */
export const TOKEN_NOT_ACCEPTED = {
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    status: 'UNAUTHENTICATED',
  },
};
