/** Console password hashing: scrypt with the documented parameters, a salted PHC-style string, no leaks by timing. */
import { expect } from 'chai';
import { generatePassword, hashPassword, passwordParameters, passwordProblem, verifyDummyPassword, verifyPassword } from '../../src/kernel/accounts/passwords.js';

describe('passwords (scrypt)', () => {
  it('writes a versioned string naming the algorithm, its parameters, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const match = /^\$scrypt\$v=1\$N=32768,r=8,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
    expect(match, stored).to.not.equal(null);
    expect(Buffer.from(match![1]!, 'base64')).to.have.length(16);
    expect(Buffer.from(match![2]!, 'base64')).to.have.length(32);
    expect(passwordParameters).to.include({ N: 32768, r: 8, p: 1 });
  });

  it('salts every hash: one password, two different strings, both verify', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(a).to.not.equal(b);
    expect(await verifyPassword('same password', a)).to.equal(true);
    expect(await verifyPassword('same password', b)).to.equal(true);
  });

  it('refuses a wrong password, a changed hash and a malformed string without throwing', async () => {
    const stored = await hashPassword('s3cret-passphrase');
    expect(await verifyPassword('s3cret-passphrasE', stored)).to.equal(false);
    expect(await verifyPassword('', stored)).to.equal(false);
    // A character inside the hash (the last one also carries padding bits that decode to nothing).
    const changed = stored.slice(0, -10) + (stored.at(-10) === 'A' ? 'B' : 'A') + stored.slice(-9);
    expect(await verifyPassword('s3cret-passphrase', changed)).to.equal(false);
    for (const malformed of ['', 'plain', '$scrypt$v=2$N=32768,r=8,p=1$AAAA$AAAA', '$bcrypt$...', stored.replace('N=32768', 'N=x')]) {
      expect(await verifyPassword('s3cret-passphrase', malformed), malformed).to.equal(false);
    }
  });

  it('verifies with the parameters written in the string, so raising the cost later keeps old hashes valid', async () => {
    // A hash made with N=2^14 (cheaper than today's): verified with its own N, not the current one.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const hash = scryptSync('older password', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const stored = `$scrypt$v=1$N=16384,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${hash.toString('base64').replace(/=+$/, '')}`;
    expect(await verifyPassword('older password', stored)).to.equal(true);
  });

  it('spends a real verification on an unknown user, so timing does not tell which e-mails exist', async () => {
    const stored = await hashPassword('known user password');
    await verifyDummyPassword('warm-up'); // the dummy hash is made once, on first use
    const time = async (work: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const real = await time(() => verifyPassword('wrong guess', stored));
    const dummy = await time(() => verifyDummyPassword('wrong guess'));
    expect(await verifyDummyPassword('known user password')).to.equal(false);
    // Same scrypt cost either way; the bound is loose so a busy machine does not make it flaky.
    expect(dummy, `dummy ${dummy} ms vs real ${real} ms`).to.be.greaterThan(real / 4);
  });

  it('generates 24-character one-time passwords and checks chosen ones for length', () => {
    const generated = new Set(Array.from({ length: 50 }, generatePassword));
    expect(generated.size).to.equal(50);
    for (const password of generated) expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(passwordProblem('short')).to.equal('the password must have at least 8 characters');
    expect(passwordProblem('x'.repeat(1025))).to.equal('the password must have at most 1024 characters');
    expect(passwordProblem('long enough')).to.equal(undefined);
  });
});
