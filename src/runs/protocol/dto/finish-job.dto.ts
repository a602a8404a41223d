import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_POLICY_OUTPUT_CHARS } from '../agent-protocol.types';
import { Omittable } from '../../../common/jsonapi/presence';

/** How much of an engine's output is kept per policy (a TEXT column holds it on every dialect). */
const MAX_POLICY_OUTPUT = MAX_POLICY_OUTPUT_CHARS;

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

/** One policy's result in a policy-evaluation job's report. */
export class PolicyResultBody {
  /** The policy's name, as the job named it (or as the set's own configuration names it, for versioned sets). */
  @IsString()
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  policy: string;

  @IsIn(['passed', 'failed'], { message: 'must be passed or failed' })
  status: 'passed' | 'failed';

  /** Only for versioned sets, whose levels live in the set's own configuration. */
  @Omittable()
  @IsString()
  @MaxLength(32, { message: 'is too long (maximum is 32 characters)' })
  'enforcement-level'?: string;

  @Omittable()
  @IsString()
  @MaxLength(MAX_POLICY_OUTPUT, { message: `is too long (maximum is ${MAX_POLICY_OUTPUT} characters)` })
  output?: string;
}

/** A policy-evaluation job's report: how the engine ended and one result per policy. */
export class FinishPolicyEvaluationBody {
  @IsIn(['finished', 'errored'], { message: 'must be finished or errored' })
  status: 'finished' | 'errored';

  @Omittable()
  @IsString()
  @MaxLength(10_000, { message: 'is too long (maximum is 10000 characters)' })
  'error-message'?: string;

  @Omittable()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(500, { message: 'has too many items (maximum is 500)' })
  @ValidateNested({ each: true })
  @Type(() => PolicyResultBody)
  results?: PolicyResultBody[];
}
