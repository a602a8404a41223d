import { IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';

/** The executor's report (plain JSON): how the command ended and what the plan would change. */
export class FinishJobBody {
  @IsIn(['finished', 'errored'], { message: 'must be finished or errored' })
  status: 'finished' | 'errored';

  @IsOptional()
  @IsString()
  @MaxLength(10_000, { message: 'is too long (maximum is 10000 characters)' })
  'error-message'?: string;

  @IsOptional()
  @IsBoolean()
  'has-changes'?: boolean;

  @IsOptional()
  @IsInt()
  @Min(0)
  'resource-additions'?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  'resource-changes'?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  'resource-destructions'?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  'resource-imports'?: number;
}
