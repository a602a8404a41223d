import { IsSlugName } from '../../../common/jsonapi/name-rule';
import { IsBoolean } from 'class-validator';
import { Omittable } from '../../../common/jsonapi/presence';

export class CreateAgentPoolAttributes {
  @IsSlugName(90)
  name: string;

  @Omittable()
  @IsBoolean()
  'organization-scoped'?: boolean;
}

export class UpdateAgentPoolAttributes {
  @Omittable()
  @IsSlugName(90)
  name?: string;

  @Omittable()
  @IsBoolean()
  'organization-scoped'?: boolean;
}
