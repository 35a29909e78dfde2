/**
 * A throw-away MariaDB/MySQL database per test run (`mgtest_<random>`), dropped afterwards, so suites can
 * run repeatedly and side by side. Unreachable server: with CI set the test fails; locally it is skipped.
 */
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';

export const mariaDbServerUrl = process.env.MEDIAGATE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

export async function createTestDatabase(hookContext: Mocha.Context): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mgtest_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: { uri: `${mariaDbServerUrl}/` } as never, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } catch (error) {
    await admin.destroy();
    if (process.env.CI) throw new Error(`MariaDB at ${mariaDbServerUrl} is required in CI: ${(error as Error).message}`);
    hookContext.skip();
  }
  return {
    url: `${mariaDbServerUrl}/${name}`,
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}
