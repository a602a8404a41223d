import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsString,
  MaxLength,
  Min,
  validateSync,
} from 'class-validator';
import { Describe, Nested, schemaOf } from './dto-schema';
import { Nullable, Omittable } from './presence';

class Leaf {
  @IsString()
  @MaxLength(8)
  name: string;

  @Nullable()
  @IsString()
  note: string | null;
}

class Root {
  @Describe('how it went', 'done')
  @IsIn(['done', 'failed'])
  status: string;

  @Omittable()
  @IsInt()
  @Min(0)
  count?: number;

  @IsArray()
  @IsString({ each: true })
  tags: string[];

  @IsBoolean()
  flag: boolean;

  @Nested(() => Leaf)
  leaf: Leaf;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(3)
  @Nested(() => Leaf, { array: true })
  leaves?: Leaf[];
}

describe('schemaOf', () => {
  it('reads the rules of a class and its nested classes into an OpenAPI schema, members in order', () => {
    const leaf = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 8 }, note: { type: 'string', nullable: true } },
    };
    expect(schemaOf(Root)).toEqual({
      type: 'object',
      required: ['status', 'tags', 'flag', 'leaf'],
      properties: {
        status: { type: 'string', enum: ['done', 'failed'], description: 'how it went', example: 'done' },
        count: { type: 'integer', minimum: 0 },
        tags: { type: 'array', items: { type: 'string' } },
        flag: { type: 'boolean' },
        leaf,
        leaves: { type: 'array', maxItems: 3, items: leaf },
      },
    });
  });

  it('validates nested members with the same declaration', () => {
    const errors = (plain: object) =>
      validateSync(plainToInstance(Root, plain), { whitelist: true, forbidNonWhitelisted: true }).map(
        (e) => e.property,
      );
    const good = { status: 'done', tags: ['a'], flag: true, leaf: { name: 'n', note: null } };
    expect(errors(good)).toEqual([]);
    expect(errors({ ...good, leaf: { name: 'far too long' } })).toEqual(['leaf']);
    expect(errors({ ...good, leaves: [{ name: 'a' }, 'b'] })).toEqual(['leaves']);
    expect(errors({ ...good, extra: 1 })).toEqual(['extra']);
  });

  it('refuses a rule it cannot show rather than leave it out of the document', () => {
    class Mail {
      @IsEmail()
      address: string;
    }
    expect(() => schemaOf(Mail)).toThrow('schemaOf(Mail): no schema for the rule isEmail of address');
  });
});
