/**
 * Malformed bodies a fuzzer sends to the public API: each gets a 4xx problem document with a code (and, for
 * a field, its JSON pointer), never a 5xx, and nothing is written or charged.
 */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

describe('HTTP: bad input never gets a 500', () => {
  let service: TestService;
  let key: string;
  before(async () => {
    service = await startTestService();
    ({ key } = await service.createKey({ credits: 1000 }));
  });
  after(async () => service.stop());

  const post = (path: string, body: string | Buffer) =>
    fetch(service.url + path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : new Uint8Array(body) }).then(async (response) => ({
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as { code: string; detail: string; errors?: { path: string; message: string }[] },
    }));

  const envelope = (inputJson: string) => `{"operation":"image.generate","input":${inputJson}}`;
  const nested = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);
  const nestedObjects = (depth: number) => '{"o":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('an input nested 5000 levels deep is refused with 422 naming the field where the bound was crossed', async () => {
    const deepArrays = await post('/api/v1/requests', envelope(`{"prompt":"x","a":${nested('[', ']', 5000)}}`));
    expect(deepArrays.status).to.equal(422);
    // Levels: the envelope, input, a, then 29 nested arrays; the 33rd container (item 0 of the last) is one too many.
    const arrayPath = `/input/a${'/0'.repeat(30)}`;
    expect(deepArrays.body).to.deep.include({ code: 'MG_VALIDATION_FAILED', detail: `${arrayPath} nests deeper than 32 levels`, errors: [{ path: arrayPath, message: 'nests deeper than 32 levels' }] });
    const deepObjects = await post('/api/v1/estimates', envelope(`{"prompt":"x","o":${nestedObjects(5000)}}`));
    expect(deepObjects.status).to.equal(422);
    expect(deepObjects.body.errors).to.deep.equal([{ path: `/input${'/o'.repeat(31)}`, message: 'nests deeper than 32 levels' }]);
  });

  it('names an oversized string, a non-finite number, a __proto__ key and a repeated key', async () => {
    const cases: [string, string, string][] = [
      [envelope(`{"prompt":"${'x'.repeat(262_145)}"}`), '/input/prompt', 'is longer than 262144 characters'],
      [envelope('{"prompt":"x","seed":1e400}'), '/input/seed', 'is not a finite number'],
      [envelope('{"prompt":"x","__proto__":{"admin":true}}'), '/input/__proto__', 'is a reserved name'],
      ['{"operation":"image.generate","operation":"video.generate","input":{"prompt":"x"}}', '/operation', 'appears twice in the same object'],
      [envelope('{"prompt":"x","list":[1,2,{"a/b":-1e999}]}'), '/input/list/2/a~1b', 'is not a finite number'],
      [envelope('{"prompt":"half a pair \\ud800"}'), '/input/prompt', 'is not well-formed Unicode (a lone surrogate)'],
    ];
    for (const [body, path, message] of cases) {
      const response = await post('/api/v1/requests', body);
      expect(response.status, path).to.equal(422);
      expect(response.body.errors, path).to.deep.equal([{ path, message }]);
    }
  });

  it('a small fuzz corpus: every answer is a 4xx problem document with a code', async () => {
    const corpus: (string | Buffer)[] = [
      nested('[', ']', 5000),
      nested('[', ']', 100_000),
      nestedObjects(20_000),
      envelope(nested('[', ']', 40)),
      envelope('"just text"'),
      envelope('42'),
      envelope('null'),
      envelope('[]'),
      '[]',
      '"text"',
      'null',
      '1e400',
      '{"__proto__":{"operation":"image.generate"}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      envelope('{"prompt":"x","prompt":"y"}'),
      envelope(`{"prompt":${'9'.repeat(400)}}`),
      envelope('{"prompt":"\\ud800"}'),
      Buffer.concat([Buffer.from('{"operation":"image.generate","input":{"prompt":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}}')]),
      '{"operation":',
      '',
      '\u0000',
    ];
    for (const body of corpus) {
      const label = body.toString().slice(0, 60);
      const response = await post('/api/v1/requests', body);
      expect(response.status, label).to.be.within(400, 499);
      expect(response.type, label).to.match(/^application\/problem\+json/);
      expect(response.body.code, label).to.match(/^MG_[A-Z_]+$/);
    }
    expect((await service.api('GET', '/api/v1/requests', { key })).body.data).to.deep.equal([]);
  });

  it('invalid UTF-8 is a 400, not silently replaced', async () => {
    const body = Buffer.concat([Buffer.from('{"operation":"image.generate","input":{"prompt":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const response = await post('/api/v1/requests', body);
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.include({ code: 'MG_MALFORMED_JSON', detail: 'the body is not valid UTF-8' });
  });
});
