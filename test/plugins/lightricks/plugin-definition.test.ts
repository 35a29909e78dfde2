import { expect } from 'chai';
import nock from 'nock';
import lightricksPlugin from '../../../plugins/lightricks/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { describePluginBasics, useNock } from '../../support/vendor-conformance.js';
import { API, CONFIG, JOB_ID, KEY, OPERATION, submitted } from './lightricks-test-kit.js';

// Neither cancel nor reconcile: LTX documents no way to either.
describePluginBasics(lightricksPlugin, { operations: [], polled: ['video.generate'], defaultBaseUrl: API, config: CONFIG });

describe('lightricks plugin: base URL', () => {
  useNock();

  it('keeps the path prefix of a configured base URL (a proxy in front of LTX)', async () => {
    const harness = await createPluginHarness(lightricksPlugin, { api_key: KEY, base_url: 'https://proxy.example/ltx' });
    try {
      const api = nock('https://proxy.example', { reqheaders: { authorization: `Bearer ${KEY}` } })
        .post('/ltx/v2/text-to-video', { model: 'ltx-2-fast', prompt: 'a fox', duration: 6, resolution: '1920x1080', fps: 25 })
        .reply(202, submitted());

      const result = await harness.start(OPERATION, { prompt: 'a fox', model: 'ltx-2-fast' }, 'ltx-2-fast');

      expect(result).to.deep.equal({ task: { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 6 } } });
      expect(api.isDone()).to.equal(true);
    } finally {
      await harness.close();
    }
  });
});
