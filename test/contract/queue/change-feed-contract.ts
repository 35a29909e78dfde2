/**
 * The change feed contract: what the request watches rely on from every change feed (in-process and RabbitMQ), run
 * unchanged against each. The announcing and the subscribing feed are one object in one process and two objects
 * (two processes' connections) across processes.
 */
import { expect } from 'chai';
import type { ChangeFeed } from '../../../src/kernel/queue/index.js';
import { quietPeriod, waitFor } from './queue-contract.js';

export interface FeedsUnderTest {
  /** Where a worker announces. */
  announcer: ChangeFeed;
  /** Where an API process listens (the same feed in one process). */
  subscriber: ChangeFeed;
  cleanup(): Promise<void>;
}

export function describeChangeFeedContract(name: string, make: () => Promise<FeedsUnderTest>): void {
  describe(`ChangeFeed contract: ${name}`, function () {
    let feeds: FeedsUnderTest | undefined;
    let batches: string[][];
    let gaps: number;

    beforeEach(async function () {
      feeds = await make();
      batches = [];
      gaps = 0;
      await feeds.subscriber.subscribe({ changed: (ids) => void batches.push([...ids]), missedSome: () => void (gaps += 1) });
    });

    afterEach(async function () {
      await feeds?.cleanup();
      feeds = undefined;
    });

    const received = () => batches.flat();

    it('delivers what was announced together as one batch, each request once', async function () {
      feeds!.announcer.announce('req_a');
      feeds!.announcer.announce('req_b');
      feeds!.announcer.announce('req_a');
      await waitFor(() => received().length >= 2, 5_000, 'the notices');
      await quietPeriod(100);
      expect(batches).to.deep.equal([['req_a', 'req_b']]);
      expect(gaps).to.equal(0);
    });

    it('delivers later announcements as they come', async function () {
      for (const id of ['req_1', 'req_2', 'req_3']) {
        feeds!.announcer.announce(id);
        await waitFor(() => received().includes(id), 5_000, `the notice of ${id}`);
      }
      expect(received()).to.deep.equal(['req_1', 'req_2', 'req_3']);
    });

    it('sends what is still gathered when the announcing feed closes', async function () {
      feeds!.announcer.announce('req_last');
      await feeds!.announcer.close();
      await waitFor(() => received().includes('req_last'), 5_000, 'the last notice');
      feeds!.announcer.announce('req_afterclose');
      await quietPeriod(200);
      expect(received()).to.deep.equal(['req_last']);
    });

    it('takes one listener', async function () {
      let refused: unknown;
      await feeds!.subscriber.subscribe({ changed: () => {}, missedSome: () => {} }).catch((error: unknown) => (refused = error));
      expect(String(refused)).to.match(/already has a listener/);
    });
  });
}
