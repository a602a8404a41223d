import { registerDecorator } from 'class-validator';

/** A check returns null when the value passes, else the message of the one rule it broke. */
export type Check = (value: unknown) => string | null;

/**
 * One attribute rule whose message depends on what is wrong, so a missing value reads
 * "can't be blank" alone instead of also failing every other rule on the property.
 */
export function Rule(check: Check): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'registryRule',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => check(value) === null,
        defaultMessage: (args) => check(args?.value) ?? 'is invalid',
      },
    });
}

export interface StringRule {
  max: number;
  pattern?: RegExp;
  patternMessage?: string;
  /** A further check on a present, well-formed string. */
  then?: (value: string) => string | null;
}

export function requiredString(rule: StringRule): Check {
  return (value) => {
    if (value === undefined || value === null || value === '') return "can't be blank";
    if (typeof value !== 'string') return 'must be a string';
    if (value.trim() === '') return "can't be blank";
    if (value.length > rule.max) return `is too long (maximum is ${rule.max} characters)`;
    if (rule.pattern && !rule.pattern.test(value)) return rule.patternMessage ?? 'is invalid';
    return rule.then ? rule.then(value) : null;
  };
}

/** Letters, numbers, `-` and `_`, starting with a letter or number. */
export const REGISTRY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const REGISTRY_NAME_MESSAGE = 'is invalid: use letters, numbers, - and _';
