/**
 * Statements a MariaDB server ran, from its `Com_%` status counters (one per statement kind, server-wide), so a
 * bench can say how many INSERTs, UPDATEs, SELECTs and COMMITs one create costs. performance_schema would give them
 * per database, but it is off on a default MariaDB and needs a restart to turn on; the global counters also count
 * whatever else the server runs meanwhile, so a bench reads them over an idle window too and reports both.
 */
import mysql from 'mysql2/promise';

export type StatementCounts = Record<string, number>;

/** The counters worth reading per create: statement kinds and transactions, not admin commands. */
const counted = /^(Com_(insert|insert_select|update|update_multi|delete|delete_multi|select|replace|begin|commit|rollback|savepoint|release_savepoint|rollback_to_savepoint|set_option|stmt_execute|stmt_prepare|stmt_close)|Questions)$/;

export async function readStatementCounts(serverUrl: string): Promise<StatementCounts> {
  const connection = await mysql.createConnection({ uri: serverUrl });
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>("SHOW GLOBAL STATUS WHERE Variable_name LIKE 'Com\\_%' OR Variable_name = 'Questions'");
    return Object.fromEntries(rows.filter((row) => counted.test(String(row.Variable_name))).map((row) => [String(row.Variable_name), Number(row.Value)]));
  } finally {
    await connection.end();
  }
}

/** `after - before` per unit (per create), kinds that moved only. */
export function perUnit(before: StatementCounts, after: StatementCounts, units: number): StatementCounts {
  return Object.fromEntries(
    Object.keys(after)
      .map((name) => [name, (after[name] - (before[name] ?? 0)) / units] as const)
      .filter(([, value]) => value > 0),
  );
}
