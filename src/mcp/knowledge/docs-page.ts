/**
 * A knowledge record as a small, accessible HTML page (the `url` every record carries). Markdown is rendered
 * with marked; raw HTML inside it is shown as text, links other than http(s), mailto and relative ones are
 * dropped, and every value is escaped, so a page can carry no script whatever a knowledge file contains.
 */
import { Marked, type Tokens } from 'marked';
import type { KnowledgeRecord } from './knowledge-registry.js';

const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const label = this.parser.parseInline(tokens);
      if (!/^(https?:|mailto:|\/|#)/i.test(href)) return label;
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
    },
    image({ text }: Tokens.Image) {
      return escapeHtml(text);
    },
  },
});

export function renderRecordPage(record: KnowledgeRecord): string {
  const body = markdown.parse(record.text, { async: false });
  return page(record.title, `<article>\n${body}\n</article>\n<p class="meta">Record <code>${escapeHtml(record.id)}</code> (${escapeHtml(record.kind)}); MCP tools read it with <code>fetch</code>.</p>`);
}

export function renderIndexPage(groups: { kind: string; records: KnowledgeRecord[] }[], total: number): string {
  const sections = groups.map(
    ({ kind, records }) =>
      `<section aria-labelledby="kind-${escapeHtml(kind)}">\n<h2 id="kind-${escapeHtml(kind)}">${escapeHtml(kind)} (${records.length})</h2>\n<ul>\n${records
        .map((record) => `<li><a href="${escapeHtml(new URL(record.url).pathname)}">${escapeHtml(record.title)}</a></li>`)
        .join('\n')}\n</ul>\n</section>`,
  );
  return page('mediagate knowledge', `<h1>mediagate knowledge</h1>\n<p>${total} records, the same the MCP tools <code>search</code> and <code>fetch</code> answer from.</p>\n${sections.join('\n')}`);
}

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mediagate docs</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#fff}a{color:#0645ad}code,pre{font-family:ui-monospace,monospace;background:#f3f3f3}pre{padding:.75rem;overflow-x:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.meta{color:#555;font-size:.9rem}</style>
</head>
<body>
<header><nav aria-label="Documentation"><a href="/docs">mediagate docs</a></nav></header>
<main>
${main}
</main>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
