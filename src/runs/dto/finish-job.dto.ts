import { IsBoolean, IsIn, IsInt, IsString, MaxLength, Min } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

/** The executor's report (plain JSON): how the command ended and what the plan would change. */
export class FinishJobBody {
  @IsIn(['finished', 'errored'], { message: 'must be finished or errored' })
  status: 'finished' | 'errored';

  @Omittable()
  @IsString()
  @MaxLength(10_000, { message: 'is too long (maximum is 10000 characters)' })
  'error-message'?: string;

  @Omittable()
  @IsBoolean()
  'has-changes'?: boolean;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-additions'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-changes'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-destructions'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-imports'?: number;
}
