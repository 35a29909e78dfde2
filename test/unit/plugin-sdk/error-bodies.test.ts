/**
 * The error-body readers vendors share: Google's google.rpc.Status envelope and FastAPI's `detail` (a sentence,
 * or a list of validation problems). Each reads what is there and nothing else; an unknown body gives nothing,
 * so the SDK falls back to the raw text.
 */
import { expect } from 'chai';
import { describeFastApiError, describeGoogleApiError } from '../../../src/kernel/plugin-sdk/index.js';

describe('plugin SDK: Google API error bodies', () => {
  it('reads the message and takes the status as the code', () => {
    const body = { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [] } };
    expect(describeGoogleApiError(body)).to.deep.equal({ message: 'API key not valid. Please pass a valid API key.', code: 'INVALID_ARGUMENT' });
  });

  it('leaves out what is missing or not a string, and reads nothing from another shape', () => {
    expect(describeGoogleApiError({ error: { code: 500 } })).to.deep.equal({ message: undefined, code: undefined });
    expect(describeGoogleApiError({ error: 'quota' })).to.deep.equal({});
    expect(describeGoogleApiError('Bad Gateway')).to.deep.equal({});
    expect(describeGoogleApiError(undefined)).to.deep.equal({});
  });
});

describe('plugin SDK: FastAPI error bodies', () => {
  it('reads a raised error\'s sentence, trimmed', () => {
    expect(describeFastApiError({ detail: ' Insufficient credits. ' })).to.deep.equal({ message: 'Insufficient credits.' });
  });

  it('reads validation problems as `field: message` without the body root, with the first problem\'s type as the code', () => {
    const body = {
      detail: [
        { loc: ['body', 'prompt'], msg: 'String should have at most 32768 characters', type: 'string_too_long' },
        { loc: ['body', 'size', 0], msg: 'Input should be a multiple of 32', type: 'multiple_of' },
        { loc: ['query'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'seed'], type: 'int_parsing' },
      ],
    };
    expect(describeFastApiError(body)).to.deep.equal({
      message: 'prompt: String should have at most 32768 characters; size.0: Input should be a multiple of 32; query: Field required',
      code: 'string_too_long',
    });
    expect(describeFastApiError({ detail: [{ loc: ['body'], msg: 'Invalid JSON' }] })).to.deep.equal({ message: 'Invalid JSON', code: undefined });
  });

  it('reads nothing from a blank detail, a list without messages, or another shape', () => {
    expect(describeFastApiError({ detail: '  ' })).to.deep.equal({});
    expect(describeFastApiError({ detail: [{ loc: ['body', 'x'] }] })).to.deep.equal({});
    expect(describeFastApiError({ message: 'not FastAPI' })).to.deep.equal({});
    expect(describeFastApiError('Internal Server Error')).to.deep.equal({});
  });
});
