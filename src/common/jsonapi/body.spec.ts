import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { IdentifierArrayPipe, JsonApiBodyPipe } from './body';

class Attrs {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(5, { message: 'is too long (maximum is 5 characters)' })
  @Matches(/^[a-z]+$/, { message: 'is invalid' })
  name: string;

  @IsOptional()
  @IsString()
  @Matches(/^\d/, { message: 'is invalid' })
  @Matches(/\d$/, { message: 'is invalid' })
  code?: string;

  @IsOptional()
  @IsBoolean()
  'is-on'?: boolean;
}

function refusal(work: () => unknown): DomainError {
  try {
    work();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe(JsonApiBodyPipe.name, () => {
  const sut = new JsonApiBodyPipe(Attrs, { types: ['things'] });
  const doc = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
    data: { type: 'things', attributes, ...extra },
  });

  it('reads typed attributes, which ones were sent, relationships and id', () => {
    const body = sut.transform(
      doc(
        { name: 'abc', 'is-on': false, extra: 'ignored' },
        { id: 'x-1', relationships: { owner: { data: { type: 'users', id: 'u-1', attributes: {} } } } },
      ),
    );
    expect(body.attributes).toEqual(Object.assign(new Attrs(), { name: 'abc', 'is-on': false }));
    expect(body.has('is-on')).toBe(true);
    expect(body.has('code')).toBe(false);
    expect(body.id).toBe('x-1');
    expect(body.toOne('owner', 'users')).toEqual({ id: 'u-1', type: 'users' });
    expect(body.toOne('other', 'users')).toBeUndefined();
  });

  it('says only "can\'t be blank" for a missing or empty value', () => {
    for (const name of [undefined, null, '']) {
      expect(refusal(() => sut.transform(doc({ name }))).items).toEqual([
        { detail: "Name can't be blank", pointer: '/data/attributes/name' },
      ]);
    }
  });

  it('says only the type rule for a value of the wrong type', () => {
    expect(refusal(() => sut.transform(doc({ name: 1234567, 'is-on': 'yes' }))).items).toEqual([
      { detail: 'Name must be a string', pointer: '/data/attributes/name' },
      { detail: 'Is on must be a boolean value', pointer: '/data/attributes/is-on' },
    ]);
  });

  it('reports every other failed rule of a value once per message', () => {
    expect(refusal(() => sut.transform(doc({ name: 'ABCDEFG', code: 'x' }))).items).toEqual([
      { detail: 'Name is invalid', pointer: '/data/attributes/name' },
      { detail: 'Name is too long (maximum is 5 characters)', pointer: '/data/attributes/name' },
      { detail: 'Code is invalid', pointer: '/data/attributes/code' },
    ]);
  });

  it('answers a body that is not a document with 400 and a missing data with 422', () => {
    expect(refusal(() => sut.transform(undefined)).kind).toBe('bad-request');
    expect(refusal(() => sut.transform([])).kind).toBe('bad-request');
    expect(refusal(() => sut.transform({})).items).toEqual([
      { detail: 'Data must be a resource object', pointer: '/data' },
    ]);
  });

  it('checks data.type unless the route tolerates its absence', () => {
    const other = refusal(() => sut.transform({ data: { type: 'other', attributes: { name: 'a' } } }));
    expect(other.kind).toBe('conflict');
    expect(other.items).toEqual([{ detail: 'Type must be things', pointer: '/data/type' }]);
    expect(refusal(() => sut.transform({ data: { type: 7, attributes: {} } })).kind).toBe('invalid');
    expect(refusal(() => sut.transform({ data: { attributes: { name: 'a' } } })).kind).toBe('invalid');
    const lenient = new JsonApiBodyPipe(Attrs, { types: ['things'], typeRequired: false });
    expect(lenient.transform({ data: { attributes: { name: 'a' } } }).attributes.name).toBe('a');
  });

  it('reads an absent body as empty when the route allows it', () => {
    const optional = new JsonApiBodyPipe(class Empty {}, { optional: true });
    expect(optional.transform(undefined).sent.size).toBe(0);
    expect(optional.transform({}).sent.size).toBe(0);
  });

  it('reads to-many relationships, keeping each id once and checking each type', () => {
    const body = sut.transform(
      doc(
        { name: 'a' },
        {
          relationships: {
            members: {
              data: [
                { type: 'users', id: 'u-1' },
                { type: 'users', id: 'u-1' },
                { type: 'users', id: 'u-2' },
              ],
            },
            bad: { data: [{ type: 'teams', id: 't-1' }] },
          },
        },
      ),
    );
    expect(body.toMany('members', 'users')).toEqual([
      { id: 'u-1', type: 'users' },
      { id: 'u-2', type: 'users' },
    ]);
    expect(refusal(() => body.toMany('bad', 'users')).items).toEqual([
      { detail: 'Type must be users', pointer: '/data/relationships/bad/data/0/type' },
    ]);
  });
});

describe(IdentifierArrayPipe.name, () => {
  const sut = new IdentifierArrayPipe('users');

  it('reads identifier arrays and points at the first bad member', () => {
    expect(sut.transform({ data: [{ type: 'users', id: 'bob' }] })).toEqual([{ id: 'bob', type: 'users' }]);
    expect(refusal(() => sut.transform({ data: [{ type: 'users', id: '' }] })).items).toEqual([
      { detail: 'Id must be a non-empty string', pointer: '/data/0/id' },
    ]);
    expect(refusal(() => sut.transform({ data: { type: 'users', id: 'bob' } })).items[0].pointer).toBe(
      '/data',
    );
    expect(refusal(() => sut.transform(null)).kind).toBe('bad-request');
  });
});
