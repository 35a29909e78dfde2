/**
 * A provider call's abort signal is made on first use (lifecycle/lazy-abort.ts): whenever the plugin first asks for
 * it, it tells the truth about aborts that came before, and it fires for those that come after.
 */
import { expect } from 'chai';
import { LazyAbort } from '../../src/kernel/lifecycle/lazy-abort.js';

describe('LazyAbort', () => {
  it('hands out a signal already aborted, with the first reason, when the abort came before the ask', () => {
    const abort = new LazyAbort();
    const timedOut = new Error('provider call timed out');
    abort.abort(timedOut);
    abort.abort(new Error('provider call finished'));
    expect(abort.aborted).to.equal(true);
    expect(abort.signal.aborted).to.equal(true);
    expect(abort.signal.reason).to.equal(timedOut);
  });

  it('fires once for an abort after the ask, and keeps the first reason', () => {
    const abort = new LazyAbort();
    const { signal } = abort;
    expect(signal.aborted).to.equal(false);
    expect(abort.aborted).to.equal(false);
    let fired = 0;
    signal.addEventListener('abort', () => (fired += 1));
    const cancelled = new Error('the request was cancelled by the client');
    abort.abort(cancelled);
    abort.abort(new Error('provider call finished'));
    expect(fired).to.equal(1);
    expect(signal.reason).to.equal(cancelled);
    expect(abort.signal, 'one signal for the whole call').to.equal(signal);
  });
});
