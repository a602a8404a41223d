import { IsString, MaxLength, MinLength } from 'class-validator';

export const MAX_COMMENT_LENGTH = 10_000;

export class CreateCommentAttributes {
  @IsString()
  @MinLength(1, { message: "can't be blank" })
  @MaxLength(MAX_COMMENT_LENGTH, { message: `is too long (maximum is ${MAX_COMMENT_LENGTH} characters)` })
  body: string;
}
