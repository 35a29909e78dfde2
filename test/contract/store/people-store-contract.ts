/**
 * The console's tables on every database adapter: users with a case-insensitive unique e-mail, memberships,
 * sessions found by the hash of their cookie and ended on expiry, and the sign-in throttle's sliding window.
 */
import { expect } from 'chai';
import { ConsoleSessions, LoginThrottle, Users, sessionIdOf, sessionLifetime } from '../../../src/kernel/accounts/index.js';
import { AccountStore, newId, type Database } from '../../../src/kernel/store/index.js';
import { useMigratedDatabase, type OpenContractDatabase } from '../../support/contract-database.js';

export function describePeopleStoreContract(name: string, open: OpenContractDatabase): void {
  describe(`people store contract: ${name}`, function () {
    this.timeout(60_000);
    const openDatabaseOfSuite = useMigratedDatabase(open);
    let database: Database;
    let now = 1_700_000_000_000;
    const clock = { now: () => now };
    let accountId: string;

    before(async () => {
      database = openDatabaseOfSuite();
      accountId = newId('acct');
      await new AccountStore(database.sql).createAccount({ id: accountId, email: 'a@example.com', plan: 'p', creditsBalance: 0, createdAtMs: now });
    });

    it('keeps e-mails lowercased and unique, and lists memberships', async () => {
      const users = new Users(database.sql, clock);
      const user = await users.create({ email: 'Person@Example.com', password: 'long enough password', accountId, role: 'admin' });
      expect(user.email).to.equal('person@example.com');
      expect((await users.findByEmail('PERSON@example.com'))?.id).to.equal(user.id);
      expect((await users.findByEmail('person@example.com'))?.disabled).to.equal(false);
      try {
        await users.create({ email: 'person@EXAMPLE.com', password: 'long enough password', accountId, role: 'viewer' });
        expect.fail('created twice');
      } catch (error) {
        expect((error as Error).message).to.equal('a user with the e-mail person@example.com already exists');
      }
      expect(await users.memberships(user.id)).to.deep.equal([{ userId: user.id, email: 'person@example.com', accountId, role: 'admin' }]);
    });

    it('finds a session only by its cookie, stores only the hash, and ends it when idle or too old', async () => {
      const sessions = new ConsoleSessions(database.sql, clock);
      const { cookieValue, session } = await sessions.start('user_1', accountId);
      expect(session.id).to.equal(sessionIdOf(cookieValue));
      expect(JSON.stringify(await database.sql.all('SELECT * FROM console_sessions'))).to.not.contain(cookieValue);
      expect((await sessions.resolve(cookieValue))?.userId).to.equal('user_1');
      expect(await sessions.resolve(session.id), 'the stored hash is not a cookie').to.equal(undefined);
      now += sessionLifetime.idleMs;
      expect(await sessions.resolve(cookieValue), 'idle too long').to.equal(undefined);
      const kept = await sessions.start('user_1', accountId);
      // Used every 12 hours minus a millisecond, it stays alive until exactly 7 days after sign-in.
      const endsAt = now + sessionLifetime.absoluteMs;
      while (now + sessionLifetime.idleMs - 1 < endsAt) {
        now += sessionLifetime.idleMs - 1;
        expect(await sessions.resolve(kept.cookieValue), `alive at ${endsAt - now} ms before its end`).to.not.equal(undefined);
      }
      now = endsAt;
      expect(await sessions.resolve(kept.cookieValue), 'past the absolute lifetime').to.equal(undefined);
    });

    it('counts failed sign-ins in a sliding window per e-mail and per IP', async () => {
      const throttle = new LoginThrottle(database.sql, clock, { windowMs: 60_000, perEmail: 2, perIp: 3 });
      expect(await throttle.retryAfterMs('e@x', '10.0.0.1')).to.equal(0);
      await throttle.recordFailure('e@x', '10.0.0.1');
      now += 10_000;
      await throttle.recordFailure('e@x', '10.0.0.2');
      expect(await throttle.retryAfterMs('e@x', '10.0.0.9')).to.equal(50_000);
      await throttle.recordFailure('other@x', '10.0.0.1');
      expect(await throttle.retryAfterMs('new@x', '10.0.0.1')).to.equal(0);
      await throttle.recordFailure('third@x', '10.0.0.1');
      expect(await throttle.retryAfterMs('new@x', '10.0.0.1')).to.equal(60_000 - 10_000);
      await throttle.clearEmail('e@x');
      expect(await throttle.retryAfterMs('e@x', '10.0.0.9')).to.equal(0);
      now += 60_000;
      expect(await throttle.retryAfterMs('new@x', '10.0.0.1')).to.equal(0);
    });
  });
}
