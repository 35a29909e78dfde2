/**
 * Links in the repository's documentation stay inside the repository.
 *
 * What "inside" means here: a reader of a clone, offline, can follow every link.
 *   - A relative link (`[text](docs/plugins.md#anchor)`, an image, a reference definition) names a file of the
 *     repository: it resolves to an existing file without leaving the repository root, and its `#anchor`, when the
 *     target is Markdown, is a heading of that file.
 *   - An absolute link may only go to the project's own site: the origin of the error `type` URIs and deprecation
 *     links the gateway itself serves (`https://mediagate.dev`). No link sends a reader to a third party's site.
 *   - README.md and CONTRIBUTING.md, the pages a newcomer reads first, have no other URL at all, not even as bare
 *     text (GitHub would render it as a link). The pages under docs/ may cite a source as a bare URL (the vendor API
 *     reference a plugin follows, in docs/plugins.md): a citation names where a fact comes from, it is not a link the
 *     page depends on.
 * Code blocks and code spans are not links: `curl http://127.0.0.1:8080/...` is a command to type.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'chai';
import { errorTypeUri } from '../../src/kernel/errors/index.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const ownOrigins = [new URL(errorTypeUri('MG_INTERNAL')).origin];

interface Link {
  file: string;
  line: number;
  target: string;
  /** `markdown` for link syntax, `bare` for a URL written as text. */
  kind: 'markdown' | 'bare';
}

/** The text of a Markdown file without code: fenced blocks become empty lines, code spans spaces (lines keep their numbers). */
function withoutCode(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
}

function linksOf(file: string, markdown: string): Link[] {
  const links: Link[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1;
      const add = (target: string, kind: Link['kind']) => links.push({ file, line, target, kind });
      // Inline links and images: [text](target "title"), ![alt](<target>).
      for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) add(match[1]!, 'markdown');
      // Reference definitions: [id]: target
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(text);
      if (definition) add(definition[1]!, 'markdown');
      // Autolinks: <https://...>, <mailto:...>
      for (const match of text.matchAll(/<((?:https?|ftp|mailto):[^>\s]+)>/gi)) add(match[1]!, 'markdown');
      // Bare URLs, as GitHub links them; those already inside link syntax were found above.
      const outsideSyntax = text.replace(/!?\[[^\]]*\]\([^)]*\)/g, ' ').replace(/<[^>\s]+>/g, ' ');
      for (const match of outsideSyntax.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>()|]+/gi)) add(match[0].replace(/[.,;:!?'"*_]+$/, ''), 'bare');
    });
  return links;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  // Headings written in code spans (`## \`local\``) keep their words: count them with the backticks removed too.
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(heading[1]!.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'));
  }
  return anchors;
}

async function documentationFiles(): Promise<string[]> {
  const docs = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), join(root, 'CONTRIBUTING.md'), ...docs];
}

/** What is wrong with one link, or undefined when it stays inside. */
async function problemOf(link: Link): Promise<string | undefined> {
  const { target } = link;
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('www.');
  if (absolute) {
    const origin = URL.canParse(target) ? new URL(target).origin : undefined;
    if (origin && ownOrigins.includes(origin)) return undefined;
    if (link.kind === 'bare' && relative(root, link.file).startsWith('docs/')) return undefined;
    return `points outside the repository and the project's site (${ownOrigins.join(', ')})`;
  }
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(pathPart));
  if (relative(root, path).startsWith('..')) return 'leaves the repository';
  const info = await stat(path).catch(() => undefined);
  if (!info) return `names ${relative(root, path)}, which does not exist`;
  if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(await readFile(path, 'utf8')).has(anchor.toLowerCase())) {
    return `names the anchor #${anchor}, which is not a heading of ${relative(root, path)}`;
  }
  return undefined;
}

describe('documentation links stay inside the repository', () => {
  it('every link in README.md, CONTRIBUTING.md and docs/*.md resolves to a repository file or the project\'s site', async () => {
    const files = await documentationFiles();
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const link of linksOf(file, await readFile(file, 'utf8'))) {
        checked += 1;
        const problem = await problemOf(link);
        if (problem) problems.push(`${relative(root, file)}:${link.line}: ${link.target} ${problem}`);
      }
    }
    expect(problems).to.deep.equal([]);
    // The check itself must see links: README alone links its docs and screenshots.
    expect(checked).to.be.greaterThan(20);
  });

  it('finds and judges every kind of link (the checker can fail)', async () => {
    const readme = join(root, 'README.md');
    const sample = [
      'See [plugins](docs/plugins.md#at-most-one-vendor-job-per-request), ![shot](docs/console/keys.png) and [errors][e].',
      '[e]: docs/errors.md',
      'Bad: [gone](docs/nope.md), [anchor](docs/plugins.md#no-such-heading), [up](../outside.md), <https://example.org/x>.',
      'Also [tsx](https://tsx.is) and https://third-party.example/page, but not `https://in.code/span`.',
      '```sh',
      'curl https://in.a.code/block',
      '```',
      'Own: [an error](https://mediagate.dev/docs/errors#mg-internal).',
    ].join('\n');
    const links = linksOf(readme, sample);
    expect(links.map(({ line, target, kind }) => ({ line, target, kind }))).to.deep.equal([
      { line: 1, target: 'docs/plugins.md#at-most-one-vendor-job-per-request', kind: 'markdown' },
      { line: 1, target: 'docs/console/keys.png', kind: 'markdown' },
      { line: 2, target: 'docs/errors.md', kind: 'markdown' },
      { line: 3, target: 'docs/nope.md', kind: 'markdown' },
      { line: 3, target: 'docs/plugins.md#no-such-heading', kind: 'markdown' },
      { line: 3, target: '../outside.md', kind: 'markdown' },
      { line: 3, target: 'https://example.org/x', kind: 'markdown' },
      { line: 4, target: 'https://tsx.is', kind: 'markdown' },
      { line: 4, target: 'https://third-party.example/page', kind: 'bare' },
      { line: 8, target: 'https://mediagate.dev/docs/errors#mg-internal', kind: 'markdown' },
    ]);
    const verdicts = await Promise.all(links.map(problemOf));
    expect(verdicts.map((verdict) => verdict === undefined)).to.deep.equal([true, true, true, false, false, false, false, false, false, true]);
    // A bare citation is allowed under docs/, never in README.md.
    const citation: Link = { file: join(root, 'docs', 'plugins.md'), line: 1, target: 'https://docs.fal.ai/model-endpoints/queue', kind: 'bare' };
    expect(await problemOf(citation)).to.equal(undefined);
    expect(await problemOf({ ...citation, file: readme })).to.be.a('string');
  });
});
