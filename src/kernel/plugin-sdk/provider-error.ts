/**
 * The one error type a plugin throws. `retryable` decides between "try again later" (408/409/429/5xx,
 * timeouts, network) and "the request fails with the vendor's message" (other 4xx, bad output).
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

  /** Classifies an HTTP status the way every plugin should. */
  static isRetryableStatus(status: number): boolean {
    return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
  }
}
