/**
 * Where a task is polled: at BFL's `polling_url` (another host than the one posted to, which BFL asks clients to
 * use as is), but only where the key may go. A URL outside the configured `base_url` and BFL's domain, or a BFL
 * URL while `base_url` is a proxy, is not followed: the task is then looked up by id under `base_url`.
 */
import { expect } from 'chai';
import nock from 'nock';
import bfl from '../../../plugins/bfl/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { usePluginHarness } from '../../support/vendor-conformance.js';
import { API, bflApi, CLUSTER, CONFIG, POLLING_URL, result, submitted, TASK_ID, withKey } from './bfl-test-kit.js';

const OPERATION = 'image.generate';
const MODEL = 'flux-2-pro';
const INPUT = { prompt: 'a lighthouse', model: MODEL };
const PROXY = 'https://bfl-proxy.example.com';

function taskWith(pollingUrl?: string) {
  return { taskId: TASK_ID, state: { aspect_ratio: '1:1', ...(pollingUrl === undefined ? {} : { polling_url: pollingUrl }) } };
}

describe('bfl plugin: polling URL', () => {
  let harness: PluginHarness;
  const harnesses = usePluginHarness(bfl, CONFIG, (created) => (harness = created));

  it('follows a polling URL on another BFL cluster while base_url is a BFL regional endpoint', async () => {
    await harnesses.replace({ ...CONFIG, base_url: 'https://api.eu.bfl.ai' });
    const eu = withKey('https://api.eu.bfl.ai').post('/v1/flux-2-pro').reply(200, submitted());
    const cluster = withKey(CLUSTER).get('/v1/get_result').query({ id: TASK_ID }).reply(200, result('Pending'));

    const started = await harness.start(OPERATION, INPUT, MODEL);
    if (!('task' in started)) throw new Error('expected a task');
    const polled = await harness.status(OPERATION, started.task, MODEL);

    expect(polled).to.deep.equal({ pending: {} });
    expect(eu.isDone() && cluster.isDone()).to.equal(true);
  });

  it('does not send the key to a polling URL off BFL\'s domain, plain http or another port: it looks the task up under base_url', async () => {
    for (const foreign of [`https://collector.example/v1/get_result?id=${TASK_ID}`, `http://api.eu2.bfl.ai/v1/get_result?id=${TASK_ID}`, `https://api.eu2.bfl.ai:8443/v1/get_result?id=${TASK_ID}`, `https://bfl.ai.example.com/v1/get_result?id=${TASK_ID}`]) {
      const elsewhere = nock(new URL(foreign).origin).get(/.*/).reply(200, result('Ready'));
      const home = withKey(API).get('/v1/get_result').query({ id: TASK_ID }).reply(200, result('Pending'));

      expect(await harness.status(OPERATION, taskWith(foreign), MODEL), foreign).to.deep.equal({ pending: {} });
      expect([home.isDone(), elsewhere.isDone()], foreign).to.deep.equal([true, false]);
      nock.cleanAll();
    }
  });

  it('looks the task up by id when the submit answer carried no polling URL', async () => {
    bflApi().post('/v1/flux-2-pro').reply(200, submitted(null));
    const home = withKey(API).get('/v1/get_result').query({ id: TASK_ID }).reply(200, result('Pending'));

    const started = await harness.start(OPERATION, INPUT, MODEL);

    expect(started).to.deep.equal({ task: taskWith() });
    if (!('task' in started)) throw new Error('expected a task');
    expect(await harness.status(OPERATION, started.task, MODEL)).to.deep.equal({ pending: {} });
    expect(home.isDone()).to.equal(true);
  });

  describe('behind a proxy (base_url with a path prefix)', () => {
    const proxyConfig = { api_key: 'proxy-key-not-bfl', base_url: `${PROXY}/bfl` };
    const viaProxy = () => nock(PROXY, { reqheaders: { 'x-key': proxyConfig.api_key } });

    it('submits under the prefix, and polls BFL\'s task under the prefix too rather than sending the proxy\'s key to BFL', async () => {
      await harnesses.replace(proxyConfig);
      viaProxy().post('/bfl/v1/flux-2-pro').reply(200, submitted());
      const bflCluster = nock(CLUSTER).get(/.*/).reply(200, result('Ready'));
      const proxyPoll = viaProxy().get('/bfl/v1/get_result').query({ id: TASK_ID }).reply(200, result('Pending'));

      const started = await harness.start(OPERATION, INPUT, MODEL);
      if (!('task' in started)) throw new Error('expected a task');
      expect(started.task.state?.polling_url).to.equal(POLLING_URL);

      expect(await harness.status(OPERATION, started.task, MODEL)).to.deep.equal({ pending: {} });
      expect([proxyPoll.isDone(), bflCluster.isDone()]).to.deep.equal([true, false]);
    });

    it('follows a polling URL the proxy hands out under its own prefix', async () => {
      await harnesses.replace(proxyConfig);
      const own = `${PROXY}/bfl/v1/get_result?id=${TASK_ID}&cluster=eu2`;
      const proxyPoll = viaProxy().get('/bfl/v1/get_result').query({ id: TASK_ID, cluster: 'eu2' }).reply(200, result('Pending'));

      expect(await harness.status(OPERATION, taskWith(own), MODEL)).to.deep.equal({ pending: {} });
      expect(proxyPoll.isDone()).to.equal(true);
    });

    it('does not follow a URL on the proxy host outside its prefix', async () => {
      await harnesses.replace(proxyConfig);
      const outside = viaProxy().get('/admin/v1/get_result').query(true).reply(200, result('Ready'));
      const prefixed = viaProxy().get('/bfl/v1/get_result').query({ id: TASK_ID }).reply(200, result('Pending'));

      expect(await harness.status(OPERATION, taskWith(`${PROXY}/admin/v1/get_result?id=${TASK_ID}`), MODEL)).to.deep.equal({ pending: {} });
      expect([prefixed.isDone(), outside.isDone()]).to.deep.equal([true, false]);
    });
  });
});
