import { createTestDatabase } from '../../support/mariadb.js';
import { describeOAuthStoreContract } from './oauth-store-contract.js';

describeOAuthStoreContract('MariaDB (mysql2)', async (context) => {
  const database = await createTestDatabase(context);
  return { url: database.url, cleanup: database.drop };
});
