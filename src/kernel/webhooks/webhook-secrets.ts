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
    let row = await this.store.secretRow(accountId);
    if (!row) {
      await this.store.ensureSecret(accountId, newWebhookSecret(), this.clock.now());
      row = await this.store.secretRow(accountId);
    }
    return row!.secret;
  }

  async rotate(accountId: string): Promise<string> {
    await this.current(accountId);
    const next = newWebhookSecret();
    await this.store.rotateSecret(accountId, next, this.clock.now(), this.graceMs);
    return next;
  }

  /** Every secret that signs right now: the current one, plus the previous one during its grace window. */
  async signing(accountId: string): Promise<string[]> {
    const secret = await this.current(accountId);
    const row = await this.store.secretRow(accountId);
    const previous = row?.previousSecret && (row.previousExpiresAtMs ?? 0) > this.clock.now() ? [row.previousSecret] : [];
    return [secret, ...previous];
  }
}
