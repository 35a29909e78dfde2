import { expect } from 'chai';
import bfl from '../../../plugins/bfl/index.js';
import { bflImageModel } from '../../../plugins/bfl/image-models.js';
import { pixelSize } from '../../../plugins/bfl/pixel-size.js';
import { describePluginBasics, failure } from '../../support/vendor-conformance.js';
import { API, CONFIG } from './bfl-test-kit.js';

// Neither cancel nor reconcile: BFL documents no lookup by our id and no cancel.
describePluginBasics(bfl, { operations: [], polled: ['image.generate', 'image.edit'], defaultBaseUrl: API, config: CONFIG });

describe('bfl plugin: models', () => {
  it('knows exactly the three FLUX endpoints the manifests route to, and refuses any other vendor model', async () => {
    expect(['flux-pro-1.1', 'flux-kontext-pro', 'flux-2-pro'].map((name) => bflImageModel(name).name)).to.deep.equal(['flux-pro-1.1', 'flux-kontext-pro', 'flux-2-pro']);
    const error = await failure(Promise.resolve().then(() => bflImageModel('flux-pro-1.1-ultra')));
    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('bfl: flux-pro-1.1-ultra is not a BFL image model this gateway knows');
  });
});

describe('bfl plugin: pixel sizes for width/height models', () => {
  const fluxPro11 = { area: 1024 * 1024, step: 32, minSide: 256, maxSide: 1440 };
  const flux2At2K = { area: 2048 * 2048, step: 16, minSide: 64, maxSide: 2048 };

  it('keeps the area of the class on the model grid', () => {
    expect(pixelSize('1:1', fluxPro11)).to.deep.equal({ width: 1024, height: 1024 });
    expect(pixelSize('16:9', fluxPro11)).to.deep.equal({ width: 1376, height: 768 });
    expect(pixelSize('4:5', fluxPro11)).to.deep.equal({ width: 928, height: 1152 });
    expect(pixelSize('16:9', { ...flux2At2K, area: 1024 * 1024 })).to.deep.equal({ width: 1360, height: 768 });
  });

  it('shrinks both sides when one would pass the longest side allowed', () => {
    // BFL's own example of FLUX.2's largest 21:9 image is 2048 x 880.
    expect(pixelSize('21:9', flux2At2K)).to.deep.equal({ width: 2048, height: 880 });
    expect(pixelSize('9:16', flux2At2K)).to.deep.equal({ width: 1152, height: 2048 });
    expect(pixelSize('21:9', fluxPro11)).to.deep.equal({ width: 1440, height: 608 });
  });
});
