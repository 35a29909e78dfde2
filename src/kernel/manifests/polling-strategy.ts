import type { PollingStrategy } from './manifest-types.js';

/**
 * The operation's polling strategy as it applies to one provider: the manifest's `polling`, with that provider's
 * entry in `polling.providers` laid over it. How soon a result can exist differs more between providers than between
 * requests (the offline `local` plugin renders a clip in seconds, a vendor queues it for minutes), so it is data
 * beside the operation's default, not a guess in code. `give_up_after_ms` stays the operation's.
 */
export function pollingFor(polling: PollingStrategy, provider: string | undefined): PollingStrategy {
  const { providers, ...strategy } = polling;
  const override = provider === undefined ? undefined : providers?.[provider];
  return override ? { ...strategy, ...override } : strategy;
}
