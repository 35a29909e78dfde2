/** Per-account signing secrets: created on first use, rotated with a grace window in which both sign. */
import { newWebhookSecret } from './webhook-signing.js';
import type { WebhookStore } from './webhook-store.js';

export class WebhookSecrets {
  constructor(
    private readonly store: WebhookStore,
    private readonly clock: { now(): number },
    private readonly graceMs: number,
  ) {}

  async current(accountId: string): Promise<string> {
    return (await this.row(accountId)).secret;
  }

  async rotate(accountId: string): Promise<string> {
    await this.current(accountId);
    const next = newWebhookSecret();
    await this.store.rotateSecret(accountId, next, this.clock.now(), this.graceMs);
    return next;
  }

  /** Every secret that signs right now: the current one, plus the previous one during its grace window. */
  async signing(accountId: string): Promise<string[]> {
    const row = await this.row(accountId);
    const previous = row.previousSecret && (row.previousExpiresAtMs ?? 0) > this.clock.now() ? [row.previousSecret] : [];
    return [row.secret, ...previous];
  }

  /** The account's secrets row, created on first use. */
  private async row(accountId: string) {
    const existing = await this.store.secretRow(accountId);
    if (existing) return existing;
    await this.store.ensureSecret(accountId, newWebhookSecret(), this.clock.now());
    return (await this.store.secretRow(accountId))!;
  }
}
