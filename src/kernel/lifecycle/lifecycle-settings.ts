/** Worker-side timing knobs, from `worker.*` in the configuration. */
export interface LifecycleSettings {
  /** How long a claim holds a request without a heartbeat; a worker renews it every third of this while it works. */
  lease_ms: number;
  /** Start attempts (lost workers) before a request fails with a refund. */
  max_attempts: number;
  sweep_interval_ms: number;
  /** A due request with no job seen for this long is republished by the sweeper. */
  requeue_after_ms: number;
  /** Delay before retrying a start that every provider deferred (vendor down, breaker open). */
  retry_after_ms: number;
  /** How long a provider's start call runs before the request shows its processing output (RequestWorker). */
  start_record_after_ms: number;
}
