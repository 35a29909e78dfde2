import { expect } from 'chai';
import { createPrivateKey } from 'node:crypto';
import vertex from '../../../plugins/vertex/index.js';
import { signAssertion } from '../../../plugins/vertex/service-account.js';
import { PluginRegistry } from '../../../src/kernel/plugins/index.js';
import { describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';
import { CLIENT_EMAIL, CONFIG, PREDICT_PATH, PRIVATE_KEY_PEM, PROJECT, PROMPT_BLOCKED, predictResponse, readAssertion, tokenExchange, tokenResponse, vertexApi } from './vertex-test-kit.js';

const BREAKER = { timeout_ms: 30_000, error_threshold_percentage: 50, reset_timeout_ms: 60_000, volume_threshold: 3, rolling_count_timeout_ms: 10_000 };

/** The settings as the kernel validates them at start (defaults applied), or the error it starts with. */
function registered(config: Record<string, unknown>): Record<string, unknown> {
  const registry = new PluginRegistry(BREAKER);
  try {
    registry.register(vertex, config);
    return registry.get('vertex')!.config;
  } finally {
    registry.shutdown();
  }
}

describe('vertex plugin: definition', () => {
  it('serves image.generate, finished in start, with no reconcile (predict takes no idempotency key or client id)', () => {
    expect(Object.keys(vertex.operations)).to.deep.equal(['image.generate']);
    const handler = vertex.operations['image.generate'];
    expect([handler.status, handler.reconcile, handler.cancel]).to.deep.equal([undefined, undefined, undefined]);
  });

  it('is enabled only with a project and a service-account key', () => {
    expect(vertex.isEnabled({})).to.equal(false);
    expect(vertex.isEnabled({ project_id: PROJECT })).to.equal(false);
    expect(vertex.isEnabled({ credentials_json: CONFIG.credentials_json })).to.equal(false);
    expect(vertex.isEnabled({ project_id: '', credentials_json: CONFIG.credentials_json })).to.equal(false);
    expect(vertex.isEnabled(CONFIG)).to.equal(true);
    expect(vertex.isEnabled({ project_id: 123456789012, credentials_file: '/etc/mediagate/vertex-key.json' })).to.equal(true);
  });

  it('defaults to us-central1 and a 120 s call timeout', () => {
    expect(registered(CONFIG)).to.deep.equal({ ...CONFIG, location: 'us-central1', timeout_ms: 120_000 });
  });

  it('refuses, at start, a key given twice, a location that is not a region name, and unknown settings', () => {
    expect(() => registered({ ...CONFIG, credentials_file: '/etc/mediagate/vertex-key.json' })).to.throw('providers.vertex set credentials_json or credentials_file, not both');
    expect(() => registered({ ...CONFIG, location: 'evil.example/x' })).to.throw('providers.vertex.location must match pattern');
    expect(() => registered({ ...CONFIG, api_key: 'AIza-not-used' })).to.throw('must NOT have additional properties');
  });

  it('signs the documented assertion: RS256 header, iss, cloud-platform scope, aud = token endpoint, one hour from iat', () => {
    const assertion = readAssertion('n/a', signAssertion({ clientEmail: CLIENT_EMAIL, privateKey: createPrivateKey(PRIVATE_KEY_PEM) }, 1_795_424_400_900));
    expect(assertion.header).to.deep.equal({ alg: 'RS256', typ: 'JWT' });
    expect(assertion.claims).to.deep.equal({ iss: CLIENT_EMAIL, scope: 'https://www.googleapis.com/auth/cloud-platform', aud: 'https://oauth2.googleapis.com/token', exp: 1_795_424_400 + 3600, iat: 1_795_424_400 });
    expect(assertion.signedByTestKey).to.equal(true);
  });
});

describe('vertex plugin: vendor failures', () => {
  describeVendorFailures(vertex, CONFIG, [
    {
      name: 'image.generate',
      operation: 'image.generate',
      model: 'imagen-4',
      input: { prompt: 'a red bicycle', model: 'imagen-4' },
      endpoint: () => vertexApi('ya29.conformance').post(PREDICT_PATH),
      // The token endpoint stands by for every harness of the suite; a harness that already holds the token
      // does not call it, so it is optional (not a pending mock). Its own behaviour is tested elsewhere.
      inputs: () => void tokenExchange([], { persist: true }).optionally().reply(200, tokenResponse('ya29.conformance')),
      success: predictResponse([{ bytes: TINY_PNG }]),
      malformed: { deployedModelId: '' },
      malformedMessage: 'vertex: malformed response: predictions is missing or not a array',
      rejection: { status: 400, body: PROMPT_BLOCKED, message: PROMPT_BLOCKED.error.message },
    },
  ]);
});
