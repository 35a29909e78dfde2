import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import klingPlugin from '../../../plugins/kling/index.js';
import { signKlingToken } from '../../../plugins/kling/kling-jwt.js';
import { API } from './kling-test-kit.js';

describe('kling plugin: definition and token', () => {
  it('is enabled only with both an access key and a secret key', () => {
    expect(klingPlugin.isEnabled({})).to.equal(false);
    expect(klingPlugin.isEnabled({ access_key: 'ak' })).to.equal(false);
    expect(klingPlugin.isEnabled({ secret_key: 'sk' })).to.equal(false);
    expect(klingPlugin.isEnabled({ access_key: '', secret_key: 'sk' })).to.equal(false);
    expect(klingPlugin.isEnabled({ access_key: 'ak', secret_key: 'sk' })).to.equal(true);
  });

  it('serves image.generate, smartmotion.generate and video.generate as polled tasks, with the Singapore endpoint as default base URL', () => {
    expect(Object.keys(klingPlugin.operations).sort()).to.deep.equal(['image.generate', 'smartmotion.generate', 'video.generate']);
    for (const handler of Object.values(klingPlugin.operations)) expect(handler.status).to.be.a('function');
    expect(klingPlugin.configSchema).to.deep.include({ additionalProperties: false });
    expect((klingPlugin.configSchema.properties as Record<string, { default?: string }>).base_url.default).to.equal(API);
  });

  it('signs the documented JWT: HS256 header with typ, iss = access key, exp 30 min ahead, nbf 5 s back', () => {
    const nowMs = 1_722_769_557_708;
    const token = signKlingToken('ak-1', 'sk-1', nowMs);
    const [header, payload, signature] = token.split('.');

    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).to.deep.equal({ iss: 'ak-1', exp: 1_722_769_557 + 1800, nbf: 1_722_769_557 - 5 });
    expect(signature).to.equal(createHmac('sha256', 'sk-1').update(`${header}.${payload}`).digest('base64url'));
  });
});
