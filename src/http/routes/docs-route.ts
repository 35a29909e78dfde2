/**
 * `GET /docs` and `GET /docs/<kind>/<slug>`: the knowledge records as HTML pages, so that every URL the MCP
 * tools hand out opens in a browser. Rendered from the same record `fetch` returns; no scripts are allowed.
 */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import { ApiError } from '../../kernel/errors/index.js';
import { renderIndexPage, renderRecordPage } from '../../mcp/knowledge/docs-page.js';
import { knowledgeFor, knowledgeKinds, recordPath, type KnowledgeRecord } from '../../mcp/knowledge/index.js';

// Pages are built from our own sources, but the policy makes "no script" hold even if a source slips.
const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function addDocsRoute(router: Router, gateway: Gateway): void {
  let byPath: Promise<Map<string, KnowledgeRecord>> | undefined;
  const pages = () =>
    (byPath ??= knowledgeFor(gateway).then((knowledge) => new Map(knowledge.all().map((record) => [recordPath(record.id), record]))));

  router.get('/docs', async (ctx) => {
    const knowledge = await knowledgeFor(gateway);
    const groups = knowledgeKinds.map((kind) => ({ kind, records: knowledge.all(kind) })).filter(({ records }) => records.length > 0);
    send(ctx, renderIndexPage(groups, knowledge.size));
  });

  router.get('/docs/:kind/*slug', async (ctx) => {
    const record = (await pages()).get(ctx.path);
    if (!record) throw new ApiError('MG_NOT_FOUND', `no documentation page at ${ctx.path}`);
    send(ctx, renderRecordPage(record));
  });
}

function send(ctx: { type: string; body: unknown; set(field: string, value: string): void }, html: string): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', contentSecurityPolicy);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = html;
}
