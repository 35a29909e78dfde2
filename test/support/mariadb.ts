/**
 * A throw-away MariaDB/MySQL database per test run (`mgtest_<random>`), dropped afterwards, so suites can
 * run repeatedly and side by side. Unreachable server: with CI set the test fails; locally it is skipped.
 */
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

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

/**
 * A throw-away database reached through a TCP proxy of the test's own (a database "down" for this test alone, or
 * the client's writes counted): `url` goes straight to the server, `proxiedUrl` through the proxy. `drop` closes the
 * proxy, then drops the database.
 */
export async function createProxiedTestDatabase(hookContext: Mocha.Context): Promise<{ url: string; proxiedUrl: string; proxy: TcpProxy; drop(): Promise<void> }> {
  const database = await createTestDatabase(hookContext);
  const direct = new URL(database.url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 3306) });
  const proxied = new URL(database.url);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  return {
    url: database.url,
    proxiedUrl: proxied.toString(),
    proxy,
    async drop() {
      await proxy.close();
      await database.drop();
    },
  };
}
