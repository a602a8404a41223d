import { createHash } from 'node:crypto';
import { DomainError } from '../common/errors/domain-error';
import { CreateStateVersionAttributes } from './dto/state-version-attributes.dto';
import { checkUploadedJson, inlineState, uploadedState } from './state-version-content-checks';

const raw = Buffer.from(
  JSON.stringify({ version: 4, serial: 3, lineage: 'ln-1', resources: [], outputs: {} }),
);
const hex = (b: Buffer) => createHash('md5').update(b).digest('hex');
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
const noLimit = () => undefined;

function attrs(over: Partial<CreateStateVersionAttributes> = {}): CreateStateVersionAttributes {
  return Object.assign(new CreateStateVersionAttributes(), { serial: 3, md5: hex(raw), ...over });
}

/** The 422's detail and pointer, or a failure when `fn` did not refuse with a DomainError. */
function refusal(fn: () => unknown): { detail?: string; pointer?: string } {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const [e] = err.items;
    return { detail: e.detail, pointer: e.pointer };
  }
  throw new Error('not refused');
}

describe('state version content checks', () => {
  it('decodes an inline state, lower-cases the md5 and reads the file', () => {
    const out = inlineState(
      attrs({ md5: hex(raw).toUpperCase(), state: b64(raw), lineage: 'ln-1' }),
      noLimit,
    );
    expect(out.declared).toEqual({ serial: 3, md5: hex(raw), lineage: 'ln-1', force: false });
    expect(out.state).toEqual(raw);
    expect(out.json).toBeNull();
    expect(out.file).toMatchObject({ serial: 3, lineage: 'ln-1', format: 4 });
  });

  it('leaves a version without inline content pending: nothing decoded, nothing read', () => {
    expect(inlineState(attrs(), noLimit)).toMatchObject({ state: null, json: null, file: null });
  });

  it('points at the attribute that is not base64', () => {
    expect(refusal(() => inlineState(attrs({ state: 'not base64!' }), noLimit))).toEqual({
      detail: 'state must be base64 encoded',
      pointer: '/data/attributes/state',
    });
    expect(refusal(() => inlineState(attrs({ 'json-state-outputs': '%%%' }), noLimit)).pointer).toBe(
      '/data/attributes/json-state-outputs',
    );
  });

  it('refuses json-state-outputs that do not parse, json-state without state, and JSON that does not parse', () => {
    expect(refusal(() => inlineState(attrs({ 'json-state-outputs': b64('{') }), noLimit)).detail).toBe(
      'json-state-outputs is not valid JSON',
    );
    expect(refusal(() => inlineState(attrs({ 'json-state': b64('{}') }), noLimit))).toEqual({
      detail: 'json-state needs state in the same request',
      pointer: '/data/attributes/json-state',
    });
    expect(refusal(() => inlineState(attrs({ state: b64(raw), 'json-state': b64('{') }), noLimit))).toEqual({
      detail: 'json-state is not valid JSON',
      pointer: '/data/attributes/json-state',
    });
  });

  it('refuses a state whose MD5 or serial is not the one declared', () => {
    expect(refusal(() => inlineState(attrs({ state: b64(raw), md5: '0'.repeat(32) }), noLimit)).pointer).toBe(
      '/data/attributes/md5',
    );
    const other = refusal(() => inlineState(attrs({ state: b64(raw), serial: 4 }), noLimit));
    expect(other.pointer).toBe('/data/attributes/state');
    expect(other.detail).toMatch(/^The state was refused: the serial inside the state \(3\)/);
  });

  it('checks the size of each inline file before anything else is read', () => {
    const sizes: number[] = [];
    inlineState(attrs({ state: b64(raw), 'json-state': b64('{}') }), (b) => void sizes.push(b.length));
    expect(sizes).toEqual([raw.length, 2]);
    expect(() =>
      inlineState(attrs({ state: b64(raw) }), () => {
        throw new Error('too large');
      }),
    ).toThrow('too large');
  });

  it('checks an upload against the version it was created with, pointing at no attribute', () => {
    const version = { md5: hex(raw), serial: 3, lineage: 'ln-1' };
    expect(uploadedState(raw, version)).toMatchObject({ serial: 3, lineage: 'ln-1' });
    expect(refusal(() => uploadedState(raw, { ...version, md5: '0'.repeat(32) })).detail).toMatch(/MD5 hash/);
    expect(refusal(() => uploadedState(raw, { ...version, lineage: 'ln-2' }))).toEqual({
      detail: 'The state was refused: the lineage inside the state is not the lineage of the state version',
      pointer: undefined,
    });
    expect(refusal(() => checkUploadedJson(Buffer.from('[')))).toEqual({
      detail: 'The JSON state is not valid JSON',
      pointer: undefined,
    });
    expect(() => checkUploadedJson(Buffer.from('{}'))).not.toThrow();
  });
});
