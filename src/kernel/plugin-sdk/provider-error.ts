/**
 * The one error type a plugin throws. `retryable` decides between "try again later" (408/409/429/5xx,
 * timeouts, network) and "the request fails with the vendor's message" (other 4xx, bad output).
 *
 * A third case sits beside those two: `outcomeUnknown`, a submission (POST, PATCH) whose bytes may have
 * reached the vendor before it failed (timeout after connecting, connection reset, 500/502/504). The vendor
 * may have created a job and may bill it, so neither "retry" nor "it failed" is true: the kernel must
 * reconcile with the vendor or fail the request with a refund, never submit again blindly.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly details: {
      provider: string;
      retryable: boolean;
      vendorStatus?: number;
      vendorCode?: string;
      /** Seconds from a vendor `Retry-After` header. */
      retryAfterSeconds?: number;
      /**
       * The vendor may have accepted the submission. With `retryable: false` it must not be sent again;
       * `retryable: true` only when it carries an idempotency key the vendor honours (a resend finds the same job).
       */
      outcomeUnknown?: boolean;
      /**
       * The vendor answered and said no: it took no job. Set on refusals a vendor reports inside a 2xx
       * envelope (Kling, Suno), so the kernel does not mistake the 2xx for an accepted submission.
       */
      refused?: boolean;
    },
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.details.retryable;
  }

  /**
   * Recognises a ProviderError by shape, not by class identity: a plugin may be loaded from another
   * folder or package with its own copy of the SDK, and `instanceof` would then say no.
   */
  static is(error: unknown): error is ProviderError {
    return (
      error instanceof ProviderError ||
      (error instanceof Error && error.name === 'ProviderError' && typeof (error as ProviderError).details?.retryable === 'boolean')
    );
  }

  /** A submission whose fate the vendor did not tell us (see the class comment); recognised by shape too. */
  static isOutcomeUnknown(error: unknown): boolean {
    return ProviderError.is(error) && error.details.outcomeUnknown === true;
  }

  /** A submission that may have reached the vendor; not retryable (no layer sends it again) unless `resendable`. */
  static outcomeUnknown(message: string, details: { provider: string; vendorStatus?: number; vendorCode?: string }, resendable = false): ProviderError {
    return new ProviderError(message, { ...details, retryable: resendable, outcomeUnknown: true });
  }

  /** Classifies an HTTP status the way every plugin should. */
  static isRetryableStatus(status: number): boolean {
    return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
  }
}
