/**
 * The console and OAuth account linking in the production topology: two API processes and a worker on
 * MariaDB + RabbitMQ behind one public URL (a proxy the test switches between the processes, so each step
 * lands on the process it names). The owner is made with the real CLI; the console session, the API key,
 * the OAuth client, its code, grant, tokens and link, and the authorization server's keys all live in the
 * shared database, so a step on one process must hold on the other.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { apiKeyCacheMs } from '../../src/kernel/accounts/api-keys.js';
import { ConsoleClient } from '../support/console-client.js';
import { CookieBrowser, formOn, MemoryOAuthClient, type Hop } from '../support/oauth-browser.js';
import { api, ProcessTopology, type ManagedProcess } from '../support/process-topology.js';
import { startSwitchingProxy, type SwitchingProxy } from '../support/switching-proxy.js';
import { rawToolCall } from '../support/mcp-tool-call.js';

const email = 'owner@example.com';
const password = 'a long passphrase for the production owner';
const callback = 'http://127.0.0.1:48140/callback';

describe('console and OAuth in the production topology: 2 api + 1 worker behind one public URL', function () {
  this.timeout(120_000);
  let proxy: SwitchingProxy;
  let topology: ProcessTopology;
  let apis: ManagedProcess[];
  let accountId: string;
  let passwordDir: string;

  before(async function () {
    proxy = await startSwitchingProxy();
    topology = await ProcessTopology.create(this, { MEDIAGATE_PUBLIC_URL: proxy.url });
    ({ accountId } = JSON.parse(await topology.cli('keys', 'create', '--name', 'bootstrap', '--credits', '100', '--email', 'team@example.com', '--json')) as { accountId: string });
    apis = [await topology.start('api'), await topology.start('api')];
    await topology.start('worker');
  });
  after(async () => {
    await topology?.stop();
    await proxy?.close();
    if (passwordDir) await rm(passwordDir, { recursive: true, force: true });
  });

  const on = (index: 0 | 1) => proxy.routeTo(apis[index]!.url);
  const mcpUrl = () => new URL(`${proxy.url}/mcp`);

  const toolCall = (token: string, name: string, args: Record<string, unknown> = {}) => rawToolCall(mcpUrl(), token, name, args);

  /** The person in the OAuth flow: from the authorize URL through sign-in to the approved consent and the code. */
  async function approveInBrowser(authorizeUrl: URL): Promise<{ consentPage: Hop; code: string }> {
    const browser = new CookieBrowser();
    const loginPage = (await browser.follow(authorizeUrl.href, () => false)).final as Hop;
    expect(loginPage.url).to.match(new RegExp(`^${proxy.url}/console/login\\?return_to=%2Foauth%2Finteraction%2F`));
    const login = formOn(loginPage, '/console/login');
    const signedIn = await browser.request(login.action, { form: { ...login.fields, email, password } });
    expect(signedIn.status, signedIn.body).to.equal(303);
    const consentPage = (await browser.follow(signedIn.location!, () => false)).final as Hop;
    expect(consentPage.status, consentPage.body).to.equal(200);
    const consent = formOn(consentPage, '/oauth/interaction/');
    const back = await browser.follow(consent.action, (url) => url.startsWith(callback), { form: { ...consent.fields, account_id: accountId, decision: 'approve' } });
    expect(back.final, JSON.stringify(back.hops.map((hop) => [hop.status, hop.url, hop.location]))).to.have.property('stopped', true);
    return { consentPage, code: new URL(back.final.url).searchParams.get('code')! };
  }

  // First in this suite: the processes have served no OAuth request yet, so the keys do not exist.
  it('generates the authorization server keys once when the first OAuth requests reach both processes together', async () => {
    const jwks = await Promise.all(apis.map(async (process) => (await fetch(`${process.url}/oauth/jwks`)).json()));
    const connection = await mysql.createConnection({ uri: topology.databaseUrl });
    try {
      const [rows] = await connection.query<RowDataPacket[]>('SELECT purpose, COUNT(*) AS n FROM oauth_keys GROUP BY purpose ORDER BY purpose');
      expect(rows.map((row) => [row.purpose, Number(row.n)])).to.deep.equal([
        ['cookie', 1],
        ['signing', 1],
      ]);
    } finally {
      await connection.end();
    }
    expect(jwks[0].keys).to.have.length(1);
    expect(jwks[1]).to.deep.equal(jwks[0]);
  });

  it('creates the owner with the CLI, signs in and makes a key on one process, links an MCP client across both, and revokes it', async () => {
    // The first owner, made with the real CLI from a password file.
    passwordDir = await mkdtemp(join(tmpdir(), 'mediagate-owner-'));
    const passwordFile = join(passwordDir, 'password');
    await writeFile(passwordFile, `${password}\n`);
    await chmod(passwordFile, 0o600);
    const created = JSON.parse(await topology.cli('users', 'create', '--email', email, '--account', accountId, '--password-file', passwordFile, '--json'));
    expect(created).to.deep.equal({ userId: created.userId, email, accountId, role: 'owner' });
    expect(created.userId).to.be.a('string').and.not.equal('');

    // Console on process 1: sign in, create a key, see its secret once; the key works on process 2.
    on(0);
    const ownerConsole = new ConsoleClient(proxy.url);
    await ownerConsole.signIn(email, password);
    const createdKey = await ownerConsole.post('/console/keys', { name: 'ci runner', scopes: ['requests:read', 'requests:write'] });
    expect(createdKey.status).to.equal(303);
    const createdPage = createdKey.headers.get('location')!;
    expect(createdPage).to.match(/^\/console\/keys\/key_[^/]+\/created$/);
    const shown = await ownerConsole.get(createdPage);
    const secret = /id="new-key-secret" class="secret" type="text" readonly value="(mg_[^"]+)"/.exec(shown.text)?.[1];
    expect(secret, shown.text).to.be.a('string');
    const again = await ownerConsole.get(createdPage);
    expect({ status: again.status, secretShown: again.text.includes(secret!), gone: again.text.includes('data-secret="gone"') }).to.deep.equal({ status: 200, secretShown: false, gone: true });
    const status = await api(apis[1]!.url, secret!, 'GET', '/api/v1/status');
    expect({ status: status.status, remaining: status.body.creditsRemaining }).to.deep.equal({ status: 200, remaining: 100 });

    // OAuth: the MCP SDK registers and is sent to authorize on process 1, where the person signs in and approves.
    const provider = new MemoryOAuthClient(callback);
    const pending = new Client({ name: 'topology-oauth', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await pending.connect(transport);
    expect(await pending.callTool({ name: 'api_status', arguments: {} }).catch((error: unknown) => error)).to.be.instanceOf(UnauthorizedError);
    const { consentPage, code } = await approveInBrowser(provider.authorizationUrl!);
    expect(consentPage.body).to.include('Connect <span class="client-name">Test MCP client</span>?');

    // Process 2 exchanges the code process 1 issued, and signs the token.
    on(1);
    const servedBefore = proxy.served.get(new URL(apis[1]!.url).origin) ?? 0;
    await transport.finishAuth(code);
    expect(proxy.served.get(new URL(apis[1]!.url).origin), 'the token request went to process 2').to.be.greaterThan(servedBefore);
    await pending.close();
    const token = provider.savedTokens!.access_token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).to.include({ iss: proxy.url, aud: `${proxy.url}/mcp`, scope: 'requests:read requests:write' });

    // A generation through MCP on process 2, run by the worker.
    const linked = new Client({ name: 'topology-oauth', version: '1.0.0' });
    await linked.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const generation = await linked.callTool({ name: 'create_generation_request', arguments: { operation: 'test.echo', input: { message: 'linked over oauth' }, confirmed: true, max_credits: 2 } });
    expect(generation.isError ?? false, JSON.stringify(generation.content)).to.equal(false);
    const requestId = (generation.structuredContent as { id: string }).id;
    // Requests belong to the key that made them (here the link's), so the client itself polls for the result.
    const until = Date.now() + 30_000;
    let polled = await linked.callTool({ name: 'get_generation_request', arguments: { id: requestId } });
    while (!['succeeded', 'failed'].includes((polled.structuredContent as { status: string }).status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      polled = await linked.callTool({ name: 'get_generation_request', arguments: { id: requestId } });
    }
    expect(polled.structuredContent).to.deep.include({ id: requestId, status: 'succeeded', operation: 'test.echo' });
    await linked.close();

    // Process 1 verifies the token process 2 signed, and its console lists the client's request.
    on(0);
    expect((await toolCall(token, 'api_status')).status).to.equal(200);
    const log = await ownerConsole.get('/console/requests');
    expect(log.status).to.equal(200);
    const row = new RegExp(`<tr data-request-id="${requestId}">[\\s\\S]*?</tr>`).exec(log.text)?.[0];
    expect(row, log.text).to.be.a('string');
    expect(row).to.include('<td>test.echo</td>').and.include('<span class="badge state-succeeded">succeeded</span>');

    // Process 2's console revokes the link; process 1 refuses the token at once.
    on(1);
    const apps = await ownerConsole.get('/console/apps');
    const linkIds = [...apps.text.matchAll(/action="\/console\/apps\/([^/"]+)\/revoke"/g)].map((match) => match[1]);
    expect({ status: apps.status, links: linkIds.length }).to.deep.equal({ status: 200, links: 1 });
    const revoked = await ownerConsole.post(`/console/apps/${linkIds[0]}/revoke`);
    expect({ status: revoked.status, location: revoked.headers.get('location') }).to.deep.equal({ status: 303, location: '/console/apps?revoked=1' });
    const revokedAtMs = Date.now();
    on(0);
    // Process 1 read the link a moment ago (the api_status above) and may trust it for the cache time: the
    // same bound as API keys (oauth-links.ts). The grant is gone from the store at once: no new tokens.
    const refresh = await fetch(`${proxy.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: provider.savedTokens!.refresh_token!, client_id: provider.registration!.client_id }),
    });
    expect({ status: refresh.status, body: await refresh.json() }).to.deep.equal({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
    let refused = await toolCall(token, 'api_status');
    while (refused.status === 200 && Date.now() < revokedAtMs + apiKeyCacheMs + 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refused = await toolCall(token, 'api_status');
    }
    expect({ status: refused.status, body: refused.body }).to.deep.equal({
      status: 401,
      body: { type: 'https://mediagate.dev/docs/errors#mg-unauthenticated', title: 'API key missing, invalid or revoked', status: 401, code: 'MG_UNAUTHENTICATED', detail: 'the access to this account was revoked; connect the application again', instance: '/mcp' },
    });
    expect(Date.now() - revokedAtMs, 'refused within the link cache time').to.be.at.most(apiKeyCacheMs + 500);
  });
});
