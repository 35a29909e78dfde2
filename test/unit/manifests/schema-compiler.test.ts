import { expect } from 'chai';
import { compileSchema } from '../../../src/kernel/manifests/schema-compiler.js';

describe('compileSchema: one compile per distinct schema in a process', () => {
  const schema = () => ({ type: 'object', properties: { size: { type: 'integer', default: 3 } }, required: ['size'] });

  it('answers the same validator for a schema with the same text, whatever object carries it', () => {
    expect(compileSchema(schema())).to.equal(compileSchema(schema()));
    expect(compileSchema(schema(), { useDefaults: false })).to.equal(compileSchema(schema(), { useDefaults: false }));
  });

  it('keeps the option apart: defaults filled in only where asked', () => {
    const filling = compileSchema(schema());
    const checking = compileSchema(schema(), { useDefaults: false });
    expect(filling).to.not.equal(checking);
    const filled: Record<string, unknown> = {};
    expect(filling(filled)).to.equal(true);
    expect(filled).to.deep.equal({ size: 3 });
    const left: Record<string, unknown> = {};
    expect(checking(left)).to.equal(false);
    expect(left).to.deep.equal({});
    expect(checking.errors?.[0]?.keyword).to.equal('required');
  });

  it('compiles a different schema to a different validator', () => {
    expect(compileSchema({ type: 'string' })).to.not.equal(compileSchema({ type: 'number' }));
    expect(compileSchema({ type: 'string' })('x')).to.equal(true);
    expect(compileSchema({ type: 'number' })('x')).to.equal(false);
  });

  it('compiles two different schemas that name the same $id (each on its own)', () => {
    const first = compileSchema({ $id: 'https://example.com/thing', type: 'string' });
    const second = compileSchema({ $id: 'https://example.com/thing', type: 'number' });
    expect(first('x')).to.equal(true);
    expect(second('x')).to.equal(false);
    expect(second(1)).to.equal(true);
  });

  it('does not keep a schema that failed to compile', () => {
    expect(() => compileSchema({ type: 'nonsense' })).to.throw();
    expect(() => compileSchema({ type: 'nonsense' })).to.throw();
  });
});
