/**
 * Request rows written straight into a test service's store, in whatever state a test needs: as if the API had
 * accepted and charged the request and a worker (or nobody) had left it there. For recovery and worker tests that
 * start from a state the normal flow only passes through.
 */
import { newId } from '../../src/kernel/store/index.js';
import type { TestService } from './test-service.js';

/** A `test.echo` request for 2 credits, debited with its ledger entry, then the given columns set; returns its id. */
export async function paidRequestRow(
  service: TestService,
  owner: { accountId: string; keyId: string },
  fields: Record<string, unknown> = {},
  options: { message?: string; createdAtMs?: number } = {},
): Promise<string> {
  const { requests, accounts, database } = service.service.gateway;
  const id = newId('req');
  await database.sql.transaction(async (trx) => {
    await requests.insert(trx, {
      id,
      accountId: owner.accountId,
      apiKeyId: owner.keyId,
      operation: 'test.echo',
      model: 'echo-1',
      billableCredits: 2,
      input: { message: options.message ?? 'row' },
      webhookUrl: null,
      createdAtMs: options.createdAtMs ?? Date.now() - 5000,
    });
    await accounts.debit(trx, owner.accountId, 2);
    await accounts.appendLedger(trx, { accountId: owner.accountId, requestId: id, kind: 'debit', amount: -2, atMs: Date.now() });
    const columns = Object.keys(fields);
    if (columns.length) await trx.run(`UPDATE requests SET ${columns.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`, [...Object.values(fields), id]);
  });
  return id;
}
