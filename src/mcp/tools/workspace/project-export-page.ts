/**
 * The page `export_creator_flow_project` embeds: one self-contained HTML file (inline style and script, no
 * fonts, nothing fetched but the media images it shows) that reads the same opened from disk, in an MCP
 * client's frame or on paper. It shows the snapshot and carries it once, as JSON in a non-executed script
 * element, for the "Download JSON" button, so the file and the download can never disagree.
 *
 * Every user-supplied text goes through the console's `html` tag (escaped); the embedded JSON escapes `<` so
 * no title can close its script element. A meta Content-Security-Policy allows only this page's own style and
 * script (by hash) and images, as a second wall behind the escaping and so the page can fetch nothing else.
 */
import { createHash } from 'node:crypto';
import { html, trustedHtml, type SafeHtml } from '../../../http/console/html.js';
import type { SnapshotJson } from './workspace-views.js';

type LinkJson = SnapshotJson['world_links'][number];
type AssetJson = SnapshotJson['assets'][number];
type StepJson = SnapshotJson['project']['steps'][number];

/**
 * How long the gateway keeps a request's hosted media: the default `retention.days` (the issue's "7 days"),
 * said on the page so a reader knows those links will break. The renderer is not told a changed setting.
 */
const hostedMediaDays = 7;

const pageStyle = `
:root { color-scheme: light; --ink: #1c232b; --muted: #56616d; --line: #d3d9e0; --soft: #f3f5f7; --accent: #0a58a8; --warn: #fff6dc; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; color: var(--ink); background: #fff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
.page-header, main, .page-footer { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
.page-header { padding-top: 1.5rem; }
.eyebrow { margin: 0; color: var(--muted); font-size: .875rem; letter-spacing: .02em; }
h1 { margin: .25rem 0 .75rem; font-size: 1.9rem; line-height: 1.2; overflow-wrap: anywhere; }
h2 { margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); font-size: 1.4rem; }
h3 { margin: 1.25rem 0 .5rem; font-size: 1.15rem; overflow-wrap: anywhere; }
h4 { margin: 0 0 .35rem; font-size: 1.05rem; overflow-wrap: anywhere; }
h5 { margin: .75rem 0 .25rem; font-size: .9rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
a { color: var(--accent); }
code { font: .85em/1.4 ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
pre { margin: .25rem 0 0; padding: .75rem; background: var(--soft); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
.note { margin: 0 0 1rem; padding: .75rem 1rem; background: var(--warn); border-left: 4px solid #c99a06; border-radius: 4px; }
.muted { color: var(--muted); }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; margin: 0 0 .5rem; }
.toolbar label { font-weight: 600; }
.toolbar input { flex: 1 1 18rem; min-width: 0; padding: .45rem .6rem; font: inherit; border: 1px solid #8a96a3; border-radius: 4px; }
.toolbar button { padding: .45rem .9rem; font: inherit; color: #fff; background: var(--accent); border: 0; border-radius: 4px; cursor: pointer; }
.toolbar button:focus-visible, .toolbar input:focus-visible { outline: 3px solid #f0b400; outline-offset: 1px; }
.search-status { margin: 0 0 .5rem; min-height: 1.5em; color: var(--muted); }
.sections ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: 0; padding: 0; list-style: none; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.description { white-space: pre-wrap; overflow-wrap: anywhere; }
ol.steps { margin: 0; padding: 0; list-style: none; }
.step, .asset { margin: 0 0 1rem; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 6px; }
.step h3 { margin-top: 0; }
.notes { margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.kind { display: inline-block; margin-left: .4rem; padding: 0 .45rem; font-size: .8rem; font-weight: 600; color: var(--muted); border: 1px solid var(--line); border-radius: 999px; vertical-align: middle; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { padding: .4rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--soft); }
col.when { width: 11rem; }
col.operation { width: 14rem; }
col.request { width: 16rem; }
ul.media { display: flex; flex-wrap: wrap; gap: .5rem; margin: .25rem 0 0; padding: 0; list-style: none; }
ul.media li { max-width: 100%; }
figure { margin: 0; }
figure img { display: block; max-width: 12rem; max-height: 9rem; border: 1px solid var(--line); border-radius: 4px; background: var(--soft); }
figcaption, .origin { font-size: .8rem; color: var(--muted); }
.link { margin: .35rem 0; }
.no-matches { margin: .5rem 0; font-style: italic; color: var(--muted); }
.page-footer { margin-top: 2rem; padding-bottom: 2rem; color: var(--muted); font-size: .875rem; }
@media print {
  .toolbar, .search-status, .sections, .no-matches { display: none !important; }
  /* Paper is a record of the whole snapshot: a search typed before printing must not silently drop items. */
  li.step[hidden], article.asset[hidden] { display: block !important; }
  tr[data-filter-item][hidden] { display: table-row !important; }
  body { font-size: 10.5pt; }
  .page-header, main, .page-footer { max-width: none; padding: 0; }
  main > section + section { break-before: page; }
  h2, h3, h4, h5 { break-after: avoid; }
  tr, figure, .link { break-inside: avoid; }
  thead { display: table-header-group; }
  /* A page is narrower than a screen: the media column, which prints each URL, gets the room. */
  col.request { width: 22%; }
  col.operation { width: 18%; }
  col.when { width: 12%; }
  .step, .asset { break-inside: avoid-page; }
  pre { background: none; border: 1px solid var(--line); }
  ul.media a[href]::after { content: " " attr(href); font-size: 7.5pt; color: var(--muted); overflow-wrap: anywhere; }
}
`;

const pageScript = `
(() => {
  const search = document.getElementById('export-search');
  const status = document.getElementById('search-status');
  const download = document.getElementById('download-json');
  const groups = Array.from(document.querySelectorAll('[data-filter-group]'));
  document.getElementById('export-toolbar').hidden = false;

  const filter = () => {
    const typed = search.value.trim();
    const query = typed.toLowerCase();
    let shown = 0;
    let total = 0;
    for (const group of groups) {
      const items = Array.from(group.querySelectorAll('[data-filter-item]'));
      let visible = 0;
      for (const item of items) {
        const match = query === '' || item.textContent.toLowerCase().includes(query);
        item.hidden = !match;
        if (match) visible += 1;
      }
      const none = group.querySelector('.no-matches');
      if (none) {
        none.hidden = query === '' || items.length === 0 || visible > 0;
        none.textContent = 'No ' + group.dataset.filterGroup + ' match \\u201c' + typed + '\\u201d.';
      }
      shown += visible;
      total += items.length;
    }
    status.textContent = query === '' ? '' : shown + ' of ' + total + ' steps, requests and assets match \\u201c' + typed + '\\u201d.';
  };
  search.addEventListener('input', filter);

  download.addEventListener('click', () => {
    const data = JSON.parse(document.getElementById('export-data').textContent);
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2) + '\\n'], { type: 'application/json' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = download.dataset.filename;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    // Revoked later, not at once: the browser reads the blob after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  });
})();
`;

const sourceHash = (source: string) => `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;

// Images are the one thing the page loads (the media it shows); no connect-src, so its script can send nothing.
const contentSecurityPolicy = `default-src 'none'; img-src http: https:; style-src ${sourceHash(pageStyle)}; script-src ${sourceHash(pageScript)}; base-uri 'none'; form-action 'none'`;

/** The export as one HTML document: `data` shown for people and embedded, unchanged, for the JSON download. */
export function renderProjectExportPage(data: SnapshotJson, options: { publicUrl: string }): string {
  const { project, world } = data;
  const media = new MediaLinks(options.publicUrl);
  const assetNames = new Map(data.assets.map((asset) => [asset.id, asset.name]));
  const sections = [
    { id: 'project', label: 'Project' },
    { id: 'steps', label: `Steps (${project.steps.length})` },
    { id: 'requests', label: `Requests (${project.requests.length})` },
    { id: 'world', label: world ? `World (${data.assets.length} assets)` : 'World' },
  ];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${project.title} · project export</title>
<style>${trustedHtml(pageStyle)}</style>
</head>
<body>
<header class="page-header">
<p class="eyebrow">mediagate · creator-flow project export</p>
<h1 id="project-title">${project.title}</h1>
<p class="note" role="note" id="snapshot-note"><strong>Private, point-in-time snapshot</strong> of this project as it stood at ${timeText(data.exported_at)}: later changes are not in it, and it holds project details meant only for the people the project is shared with. Linked media are URLs, not copies: showing or opening them needs network access, and they may expire — media the gateway hosted for a generation request are kept ${hostedMediaDays} days.</p>
<div class="toolbar" id="export-toolbar" role="search" hidden>
<label for="export-search">Search steps, requests and assets</label>
<input type="search" id="export-search" autocomplete="off" spellcheck="false" aria-describedby="search-status">
<button type="button" id="download-json" data-filename="${exportFileName(data)}">Download JSON</button>
</div>
<p class="search-status" id="search-status" role="status" aria-live="polite"></p>
<nav class="sections" aria-label="Sections"><ul>${sections.map((section) => html`<li><a href="#${section.id}">${section.label}</a></li>`)}</ul></nav>
</header>
<main>
${projectSection(data)}
${stepsSection(project.steps)}
${requestsSection(project.requests, media)}
${worldSection(data, media, assetNames)}
</main>
<footer class="page-footer">
<p>Exported ${timeText(data.exported_at)} from ${media.isSafe(options.publicUrl) ? html`<a href="${options.publicUrl}">${options.publicUrl}</a>` : 'mediagate'}. The Download JSON button saves the data this page shows.</p>
</footer>
<script type="application/json" id="export-data">${trustedHtml(embeddedJson(data))}</script>
<script>${trustedHtml(pageScript)}</script>
</body>
</html>
`.toString();
}

function projectSection(data: SnapshotJson): SafeHtml {
  const { project } = data;
  return html`<section id="project" aria-labelledby="project-heading">
<h2 id="project-heading">Project</h2>
${project.description ? html`<p class="description">${project.description}</p>` : html`<p class="muted">No description.</p>`}
<dl class="facts">
<dt>Status</dt><dd data-field="status">${project.status}</dd>
<dt>Created</dt><dd>${timeText(project.created_at)}</dd>
<dt>Last updated</dt><dd>${timeText(project.updated_at)}</dd>
<dt>Exporter's role</dt><dd>${project.role}</dd>
<dt>Shared with</dt><dd>${project.shared_with.length === 0
    ? html`<span class="muted">nobody</span>`
    : html`<ul class="shares">${project.shared_with.map((share) => html`<li>${share.email} <span class="kind">${share.role}</span></li>`)}</ul>`}</dd>
<dt>World</dt><dd>${data.world ? html`<a href="#world">${data.world.name}</a>` : html`<span class="muted">none</span>`}</dd>
<dt>Project id</dt><dd><code>${project.id}</code></dd>
<dt>Workspace id</dt><dd><code>${project.workspace_id}</code></dd>
</dl>
</section>`;
}

function stepsSection(steps: StepJson[]): SafeHtml {
  return html`<section id="steps" aria-labelledby="steps-heading" data-filter-group="steps">
<h2 id="steps-heading">Steps</h2>
${steps.length === 0
    ? html`<p class="muted">This project has no steps yet.</p>`
    : html`<ol class="steps">${steps.map((step, index) => html`<li class="step" data-filter-item id="step-${step.id}">
<h3>Step ${index + 1}: <code>${step.operation}</code></h3>
${step.notes ? html`<p class="notes">${step.notes}</p>` : html`<p class="muted">No notes.</p>`}
<h4 class="muted">Input draft</h4>
<pre><code>${JSON.stringify(step.input, null, 2)}</code></pre>
<p class="muted">Step id <code>${step.id}</code></p>
</li>`)}</ol>`}
<p class="no-matches" hidden></p>
</section>`;
}

function requestsSection(requests: LinkJson[], media: MediaLinks): SafeHtml {
  return html`<section id="requests" aria-labelledby="requests-heading" data-filter-group="requests">
<h2 id="requests-heading">Requests</h2>
<p class="muted">Generation requests that ran for this project, with what they produced.</p>
${linksTable(requests, media, 'Requests run for this project', 'No generation request has been linked to this project yet.')}
<p class="no-matches" hidden></p>
</section>`;
}

function worldSection(data: SnapshotJson, media: MediaLinks, assetNames: Map<string, string>): SafeHtml {
  const { world } = data;
  if (!world) {
    return html`<section id="world" aria-labelledby="world-heading"><h2 id="world-heading">World</h2><p class="muted">No world is attached to this project.</p></section>`;
  }
  return html`<section id="world" aria-labelledby="world-heading">
<h2 id="world-heading">World: ${world.name}</h2>
${world.description ? html`<p class="description">${world.description}</p>` : html`<p class="muted">No description.</p>`}
<dl class="facts">
<dt>Created</dt><dd>${timeText(world.created_at)}</dd>
<dt>Last updated</dt><dd>${timeText(world.updated_at)}</dd>
<dt>World id</dt><dd><code>${world.id}</code></dd>
</dl>
<div data-filter-group="world requests">
<h3>Generated for the whole world</h3>
${linksTable(data.world_links, media, 'Requests linked to the world itself', 'Nothing has been generated for the world as a whole.')}
<p class="no-matches" hidden></p>
</div>
<div data-filter-group="assets">
<h3 id="assets-heading">Assets</h3>
${data.assets_truncated ? html`<p class="note" role="note">This world has more assets than an export holds: the ${data.assets.length} newest are listed here.</p>` : ''}
${data.assets.length === 0
    ? html`<p class="muted">This world has no assets yet.</p>`
    : data.assets.map((asset) => assetArticle(asset, media, assetNames))}
<p class="no-matches" hidden></p>
</div>
</section>`;
}

function assetArticle(asset: AssetJson, media: MediaLinks, assetNames: Map<string, string>): SafeHtml {
  const location = asset.location_id;
  return html`<article class="asset" data-filter-item id="asset-${asset.id}" aria-labelledby="asset-${asset.id}-name">
<h4 id="asset-${asset.id}-name">${asset.name} <span class="kind">${asset.kind}</span></h4>
${asset.description ? html`<p class="description">${asset.description}</p>` : html`<p class="muted">No description.</p>`}
${location ? html`<p>In location ${assetNames.has(location) ? html`<a href="#asset-${location}">${assetNames.get(location)}</a>` : html`<code>${location}</code>`}</p>` : ''}
<h5>Reference media</h5>
${asset.reference_media.length === 0 ? html`<p class="muted">None.</p>` : media.list(asset.reference_media.map((url, index) => ({ url, label: `Reference ${index + 1} of ${asset.name}` })))}
<h5>Linked artifacts</h5>
${asset.links.length === 0
    ? html`<p class="muted">Nothing generated for this asset yet.</p>`
    : asset.links.map((link) => html`<div class="link"><p><code>${link.operation}</code> · request <code>${link.request_id}</code> · ${timeText(link.linked_at)}</p>${media.artifacts(link, asset.name)}</div>`)}
<p class="muted">Asset id <code>${asset.id}</code> · updated ${timeText(asset.updated_at)}</p>
</article>`;
}

function linksTable(links: LinkJson[], media: MediaLinks, caption: string, empty: string): SafeHtml {
  if (links.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<table>
<caption>${caption}</caption>
<colgroup><col class="request"><col class="operation"><col class="when"><col></colgroup>
<thead><tr><th scope="col">Request</th><th scope="col">Operation</th><th scope="col">Linked</th><th scope="col">Media</th></tr></thead>
<tbody>${links.map((link) => html`<tr data-filter-item><td><code>${link.request_id}</code></td><td><code>${link.operation}</code></td><td>${timeText(link.linked_at)}</td><td>${media.artifacts(link, link.operation)}</td></tr>`)}</tbody>
</table>`;
}

/** How a media URL shows: an image preview when it looks like one, a link otherwise, never a non-http(s) link. */
class MediaLinks {
  private readonly hostedPrefix: string;

  constructor(publicUrl: string) {
    this.hostedPrefix = `${publicUrl.replace(/\/+$/, '')}/files/`;
  }

  isSafe(url: string): boolean {
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'https:' || parsed.protocol === 'http:';
    } catch {
      return false;
    }
  }

  /** A link's artifacts in the output's order: `preview_image_urls` reads as "preview image 1 of 2". */
  artifacts(link: LinkJson, subject: string): SafeHtml {
    const items = Object.entries(link.artifacts).flatMap(([field, value]) => {
      const urls = Array.isArray(value) ? value : [value];
      const name = field.replace(/_urls?$/, '').replaceAll('_', ' ');
      return urls.map((url, index) => ({ url, label: urls.length > 1 ? `${name} ${index + 1} of ${urls.length}` : name, alt: `${subject}: ${name}` }));
    });
    if (items.length === 0) return html`<p class="muted">No media.</p>`;
    return this.list(items);
  }

  list(items: { url: string; label: string; alt?: string }[]): SafeHtml {
    return html`<ul class="media">${items.map((item) => html`<li>${this.item(item.url, item.label, item.alt ?? item.label)}</li>`)}</ul>`;
  }

  private item(url: string, label: string, alt: string): SafeHtml {
    // A javascript: or data: URL from a stored record must never become a live link: show it as text.
    if (!this.isSafe(url)) return html`<span>${label}: <code>${url}</code></span>`;
    const origin = url.startsWith(this.hostedPrefix) ? 'hosted by the gateway' : 'external';
    if (/\.(png|jpe?g|gif|webp|avif|svg)$/i.test(new URL(url).pathname)) {
      return html`<figure><a href="${url}"><img src="${url}" alt="${alt}" loading="lazy"></a><figcaption>${label} · <span class="origin">${origin}</span></figcaption></figure>`;
    }
    const file = new URL(url).pathname.split('/').pop() || url;
    return html`<a href="${url}">${label}</a> <span class="origin">(${file}, ${origin})</span>`;
  }
}

/** UTC to the minute; the machine-readable instant stays in `datetime`. */
function timeText(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** `<project title slug>-<export date>.json`, ASCII only, so every file system and mail client keeps it. */
function exportFileName(data: SnapshotJson): string {
  const slug = data.project.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return `${slug || 'project'}-${data.exported_at.slice(0, 10)}.json`;
}

/** JSON that is safe as a script element's text: `<` is escaped, so `</script>` or `<!--` in any value stays data. */
function embeddedJson(data: SnapshotJson): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
