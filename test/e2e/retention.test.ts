/** Retention: after 7 days input, output and hosted files go; the row stays, marked; concurrent purges are safe. */
import { expect } from 'chai';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const day = 24 * 60 * 60 * 1000;

describe('7-day retention purge', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.stop());

  it('removes input, output and hosted files of requests older than 7 days, keeping the row with a marker', async () => {
    const { key } = await service.createKey({ credits: 1000 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.generate', input: { prompt: 'a kept-then-purged lighthouse', model: 'nano-banana', aspect_ratio: '1:1' } } });
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect((await fetch(done.output.image_url)).status).to.equal(200);
    const { retention } = service.service.gateway;

    expect(await retention.purge(Date.now() + 6 * day), 'nothing before 7 days').to.equal(0);
    expect((await fetch(done.output.image_url)).status).to.equal(200);

    const started = Date.now();
    const [first, second] = await Promise.all([retention.purge(Date.now() + 8 * day), retention.purge(Date.now() + 8 * day)]);
    const purgeMs = Date.now() - started;
    expect(first + second, 'two concurrent purges remove it exactly once').to.equal(1);
    expect(purgeMs).to.be.lessThan(5000);

    const after = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
    expect(after.status).to.equal(200);
    expect(after.body).to.include({ id: created.body.id, status: 'succeeded', billableCredits: done.billableCredits, input: null, createdAtMs: done.createdAtMs, completedAtMs: done.completedAtMs });
    expect(after.body.output).to.deep.equal({});
    expect(after.body.dataRemovedAtMs).to.be.a('number');
    expect((await fetch(done.output.image_url)).status).to.equal(404);
  });
});
