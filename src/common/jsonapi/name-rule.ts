import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The name rule shared by organizations, workspaces and agent pools: a required-looking string of
 * letters, digits, `-` and `_`, at most `max` characters, with the real service's messages.
 * Listed in reverse because applyDecorators applies in array order, while stacked decorators
 * apply bottom-up: the rules register in the order the DTOs always wrote them.
 */
export const IsSlugName = (max: number): PropertyDecorator =>
  applyDecorators(
    Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' }),
    MaxLength(max, { message: `is too long (maximum is ${max} characters)` }),
    IsNotEmpty({ message: "can't be blank" }),
    IsString(),
  );
