import { describeStoreContract } from './store-contract.js';
import { describePeopleStoreContract } from './people-store-contract.js';
import { createTestDatabase } from '../../support/mariadb.js';

describeStoreContract('MariaDB (mysql2)', async (context) => {
  const database = await createTestDatabase(context);
  return { url: database.url, cleanup: database.drop };
});

describePeopleStoreContract('MariaDB (mysql2)', async (context) => {
  const database = await createTestDatabase(context);
  return { url: database.url, cleanup: database.drop };
});
