/**
 * The README's quick start, run as a new user runs it against `npm start` (the embedded default: the development
 * key of the first start, the offline `local` provider): the script is read from README.md, its submit command sent
 * with the headers and body it shows, and every figure the README prints for it (the starting credits,
 * `poll_after_ms`, the charge, the image size) compared with what the gateway answers. A README that drifts from the
 * service fails here, naming the figure.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { download, probeImage } from '../support/media-probe.js';
import { startTestService, type TestService } from '../support/test-service.js';

const root = new URL('../..', import.meta.url).pathname;
const readmeBase = 'http://127.0.0.1:8080';

interface QuickStart {
  startingCredits: number;
  submit: { url: string; headers: Record<string, string>; body: unknown };
  accepted: { status: number; text: string };
  polled: string;
  /** The charges the script's comments explain (`# 14 credits: ...`). */
  explainedCharges: number[];
  image: { width: number; height: number };
}

/** The quick start section of README.md, taken apart: the commands it runs and what it says they print. */
async function readQuickStart(): Promise<QuickStart> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Quick start\n'));
  if (!section) throw new Error('README.md has no "## Quick start" section');
  const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!script) throw new Error('the quick start has no sh block');
  const lines = script.replace(/\\\n\s*/g, ' ').split('\n');
  const submitAt = lines.findIndex((line) => /^curl .*\/api\/v1\/requests\s.*\s-d\s/.test(line));
  const submit = lines[submitAt]!;
  const headers = Object.fromEntries(
    [...submit.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)].map((match) => {
      const [name, ...value] = (match[1] ?? match[2])!.split(':');
      return [name!.trim(), value.join(':').trim()];
    }),
  );
  const acceptedLine = /^# -> (\d{3}) (.*)$/.exec(lines[submitAt + 1] ?? '');
  if (!acceptedLine) throw new Error('the submit command is not followed by the answer it prints (# -> 202 {...})');
  const polled = lines.find((line) => line.startsWith('# -> {') && line.includes('"status":"succeeded"'));
  const image = /a real (\d+)x(\d+) PNG/.exec(script);
  const credits = /development account with ([\d ]+) credits/.exec(section);
  if (!polled || !image || !credits) throw new Error('the quick start no longer shows the poll answer, the image size or the starting credits');
  return {
    startingCredits: Number(credits[1]!.replace(/ /g, '')),
    submit: { url: /^curl -s (\S+)/.exec(submit)![1]!, headers, body: JSON.parse(/-d '([^']*)'/.exec(submit)![1]!) },
    accepted: { status: Number(acceptedLine[1]), text: acceptedLine[2]! },
    polled,
    explainedCharges: [...script.matchAll(/^# (\d+) credits:/gm)].map((match) => Number(match[1])),
    image: { width: Number(image[1]), height: Number(image[2]) },
  };
}

/** A number the README shows for a field, e.g. `"billableCredits":4`. */
function shown(text: string, field: string): number {
  const match = new RegExp(`"${field}":(\\d+)`).exec(text);
  if (!match) throw new Error(`the README does not show ${field} in ${text}`);
  return Number(match[1]);
}

describe('README quick start', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    // As `npm start` runs it: the worker on its own thread (the default that the test harness turns off elsewhere).
    service = await startTestService({ worker: { thread: true } });
  });
  after(async () => service.stop());

  it('answers what the README shows: the credits, poll_after_ms, the charge and the image', async () => {
    const quickStart = await readQuickStart();
    const key = (await readFile(join(service.dataDir, 'dev-api-key'), 'utf8')).trim();
    const status = await service.api('GET', '/api/v1/status', { key });
    expect(status.body.creditsRemaining, 'the development account\'s credits').to.equal(quickStart.startingCredits);

    const headers = Object.fromEntries(Object.entries(quickStart.submit.headers).map(([name, value]) => [name, value.replace('$KEY', key)]));
    const path = quickStart.submit.url.replace(readmeBase, '');
    const accepted = await service.api('POST', path, { headers, rawBody: JSON.stringify(quickStart.submit.body) });
    expect(accepted.status).to.equal(quickStart.accepted.status);
    expect(accepted.body).to.deep.include({ status: 'queued', operation: (quickStart.submit.body as { operation: string }).operation });
    expect(accepted.body.poll_after_ms, 'poll_after_ms').to.equal(shown(quickStart.accepted.text, 'poll_after_ms'));

    let done = accepted.body;
    for (const until = Date.now() + 30_000; done.status !== 'succeeded' && done.status !== 'failed' && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = (await service.api('GET', `/api/v1/requests/${accepted.body.id}`, { key })).body;
    }
    expect(done.status, done.errorMessage).to.equal('succeeded');
    expect(done.billableCredits, 'the charge (billableCredits)').to.equal(shown(quickStart.polled, 'billableCredits'));
    for (const explained of quickStart.explainedCharges) expect(explained, 'the charge a comment explains').to.equal(done.billableCredits);
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(quickStart.startingCredits - done.billableCredits);

    expect(done.output.image_url).to.match(new RegExp(`^${service.url}/files/${done.id}/[^/]+\\.png$`));
    const image = await probeImage((await download(done.output.image_url)).bytes);
    expect(image).to.deep.equal({ format: 'png', ...quickStart.image });
  });
});
