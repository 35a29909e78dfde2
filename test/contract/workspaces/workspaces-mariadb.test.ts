import { describeWorkspaceContract } from './workspace-contract.js';
import { createTestDatabase } from '../../support/mariadb.js';

describeWorkspaceContract('MariaDB (mysql2)', async (context) => {
  const database = await createTestDatabase(context);
  return { url: database.url, cleanup: database.drop };
});
