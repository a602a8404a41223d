import { IsIn, IsNotEmpty } from 'class-validator';
import { ALSO_WHEN_BLANK } from '../../common/jsonapi/body';
import { REGISTRY_NAMES, RegistryName } from '../entities/registry-provider.entity';
import { REGISTRY_NAME_MESSAGE, REGISTRY_NAME_PATTERN, requiredString, Rule } from '../validation';

const NAME = requiredString({
  max: 64,
  pattern: REGISTRY_NAME_PATTERN,
  patternMessage: REGISTRY_NAME_MESSAGE,
});

export class CreateRegistryProviderAttributes {
  @Rule(NAME)
  name: string;

  @Rule(NAME)
  namespace: string;

  /** Two rules, two errors when it is missing: "can't be blank" and "is not included in the list". */
  // Decorators register bottom-up; this order reports "can't be blank" first.
  @IsIn(REGISTRY_NAMES, { message: 'is not included in the list', context: ALSO_WHEN_BLANK })
  @IsNotEmpty({ message: "can't be blank" })
  'registry-name': RegistryName;
}
