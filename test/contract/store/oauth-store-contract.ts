/**
 * The authorization server's persistence on every database adapter: oidc-provider's models (upsert, lookups
 * by id, uid and user code, expiry, consumption, revocation by grant), the signing and cookie keys generated
 * once and shared, and links whose grant going away revokes them and their request-owning key.
 */
import { expect } from 'chai';
import { ApiKeys } from '../../../src/kernel/accounts/index.js';
import { openOAuth } from '../../../src/kernel/oauth/index.js';
import { AccountStore, newId, type Database } from '../../../src/kernel/store/index.js';
import { useMigratedDatabase, type OpenContractDatabase } from '../../support/contract-database.js';

export function describeOAuthStoreContract(name: string, open: OpenContractDatabase): void {
  describe(`OAuth store contract: ${name}`, function () {
    this.timeout(60_000);
    const openDatabaseOfSuite = useMigratedDatabase(open);
    let database: Database;
    let now = 1_700_000_000_000;
    const clock = { now: () => now };
    let accountId: string;
    let apiKeys: ApiKeys;

    before(async () => {
      database = openDatabaseOfSuite();
      accountId = newId('acct');
      const accounts = new AccountStore(database.sql);
      await accounts.createAccount({ id: accountId, email: 'a@example.com', plan: 'p', creditsBalance: 0, createdAtMs: now });
      apiKeys = new ApiKeys(accounts, clock, { cacheMs: 0 });
    });

    it('stores models: upsert replaces, lookups by id, uid and user code, expiry, consumption', async () => {
      const { models } = await openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com');
      const session = models.adapterFor('Session');
      await session.upsert('s1', { uid: 'u1', accountId: 'user_1' }, 60);
      await session.upsert('s1', { uid: 'u1', accountId: 'user_2' }, 60);
      expect(await session.find('s1')).to.deep.equal({ uid: 'u1', accountId: 'user_2' });
      expect(await session.findByUid('u1')).to.deep.equal({ uid: 'u1', accountId: 'user_2' });
      expect(await models.adapterFor('Grant').find('s1'), 'another model, same id').to.equal(undefined);
      const device = models.adapterFor('DeviceCode');
      await device.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
      expect(await device.findByUserCode('ABCD-EFGH')).to.deep.equal({ userCode: 'ABCD-EFGH' });
      const code = models.adapterFor('AuthorizationCode');
      await code.upsert('c1', { grantId: 'g1' }, 60);
      await code.consume('c1');
      expect(await code.find('c1')).to.deep.equal({ grantId: 'g1', consumed: Math.floor(now / 1000) });
      now += 60_000;
      expect(await session.find('s1'), 'expired').to.equal(undefined);
      expect(await models.purgeExpired(now + 1)).to.equal(3);
    });

    it("records a link's last use to the minute, written at the latest when the links close", async () => {
      const { links } = openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com');
      const link = await links.approve({ grantId: 'g_use', accountId, userId: 'user_1', clientId: 'client_use', clientName: 'Used', scopes: ['requests:read'], redirectUris: ['http://127.0.0.1:1/cb'] });
      const lastUse = async () => (await links.listForAccount(accountId)).find((candidate) => candidate.id === link.id)!.lastUsedAtMs;
      const usedAt = now;
      links.touch(link.id);
      now += 59_000;
      links.touch(link.id);
      await links.close();
      expect(await lastUse()).to.equal(usedAt);
      now += 1_000;
      links.touch(link.id);
      await links.close();
      expect(await lastUse(), 'a minute later').to.equal(usedAt + 60_000);
    });

    it('revokes by grant: every token of the grant goes, the grant itself revokes its link and key', async () => {
      const { models, links } = await openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com');
      const link = await links.approve({ grantId: 'g2', accountId, userId: 'user_1', clientId: 'client_1', clientName: 'Claude', scopes: ['requests:read'], redirectUris: ['http://127.0.0.1:1/cb'] });
      await models.adapterFor('Grant').upsert('g2', { accountId: 'user_1' }, 600);
      await models.adapterFor('RefreshToken').upsert('r1', { grantId: 'g2' }, 600);
      await models.adapterFor('RefreshToken').upsert('r2', { grantId: 'other' }, 600);
      await models.adapterFor('RefreshToken').revokeByGrantId('g2');
      expect(await models.adapterFor('RefreshToken').find('r1')).to.equal(undefined);
      expect(await models.adapterFor('RefreshToken').find('r2')).to.deep.equal({ grantId: 'other' });
      expect((await links.active(link.id))?.scopes).to.deep.equal(['requests:read']);
      await models.adapterFor('Grant').destroy('g2');
      now += 5_000; // past the link cache
      expect(await links.active(link.id)).to.equal(undefined);
      const key = await database.sql.first<{ revoked_at_ms: unknown; scopes: string }>('SELECT revoked_at_ms, scopes FROM api_keys WHERE id = ?', [link.apiKeyId]);
      expect({ revoked: key?.revoked_at_ms !== null, scopes: key?.scopes }).to.deep.equal({ revoked: true, scopes: '["requests:read"]' });
    });

    it('two processes loading the keys for the first time at once end up with the same keys', async () => {
      const [one, two] = await Promise.all([
        openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com').keys(),
        openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com').keys(),
      ]);
      expect(two).to.deep.equal(one);
      expect(one.signingKeys).to.have.length(1);
    });

    it('generates the keys once; every later start reads the same ones; rotation adds a signing key in front', async () => {
      const first = await openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com').keys();
      const second = await openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com').keys();
      expect(second).to.deep.equal(first);
      expect(first.signingKeys).to.have.length(1);
      expect(first.cookieKeys).to.have.length(1);
      const keyStore = openOAuth(database.sql, apiKeys, clock, 'https://gw.example.com').keyStore;
      now += 1000;
      const kid = await keyStore.rotateSigningKey();
      const rotated = await keyStore.load();
      expect(rotated.signingKeys.map((key) => key.kid)).to.deep.equal([kid, first.signingKeys[0]!.kid]);
      expect(await keyStore.retireSigningKeysBefore(now + 1)).to.equal(1);
      expect((await keyStore.load()).signingKeys.map((key) => key.kid)).to.deep.equal([kid]);
    });
  });
}
