import { expect } from 'chai';
import { loadSettings, SettingsError } from '../../src/kernel/config/index.js';

describe('configuration', () => {
  it('applies defaults and environment overrides', () => {
    const settings = loadSettings({ env: { PORT: '9090', MEDIAGATE_DATA_DIR: '/tmp/mg-data', MEDIAGATE_PUBLIC_URL: 'https://media.example.com/' } });
    expect(settings.server.port).to.equal(9090);
    expect(settings.data_dir).to.equal('/tmp/mg-data');
    expect(settings.server.public_url).to.equal('https://media.example.com');
    expect(settings.database.url).to.equal('sqlite:/tmp/mg-data/mediagate.sqlite');
  });

  it('derives the public URL from host and port when unset', () => {
    const settings = loadSettings({ env: { PORT: '8181' } });
    expect(settings.server.public_url).to.equal('http://127.0.0.1:8181');
  });

  it('names every bad setting in one error', () => {
    try {
      loadSettings({ env: { PORT: 'eighty', MEDIAGATE_PUBLIC_URL: 'not a url', MEDIAGATE_DATABASE_URL: 'postgres://x', MEDIAGATE_WORKER_CONCURRENCY: '0' } });
      expect.fail('loaded');
    } catch (error) {
      expect(error).to.be.instanceOf(SettingsError);
      const message = (error as Error).message;
      expect(message).to.contain('PORT=eighty must be an integer');
      expect(message).to.contain('server.public_url');
      expect(message).to.contain('database.url');
      expect(message).to.contain('worker.concurrency must be >= 1');
    }
  });

  it('reads the worker thread switch from MEDIAGATE_WORKER_THREAD, true or false only (on by default)', () => {
    expect(loadSettings({ env: {} }).worker.thread).to.equal(true);
    expect(loadSettings({ env: { MEDIAGATE_WORKER_THREAD: 'false' } }).worker.thread).to.equal(false);
    expect(loadSettings({ env: { MEDIAGATE_WORKER_THREAD: ' true ' } }).worker.thread).to.equal(true);
    expect(() => loadSettings({ env: { MEDIAGATE_WORKER_THREAD: 'yes' } })).to.throw(SettingsError, 'MEDIAGATE_WORKER_THREAD=yes must be true or false');
  });
});
