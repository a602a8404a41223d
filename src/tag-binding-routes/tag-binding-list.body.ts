import { Body, PipeTransform } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { readTagBindings, TagBindingInput } from '../tag-bindings/tag-binding-rules';

/** The body of PATCH …/tag-bindings: `{data: [{type: 'tag-bindings', attributes: {key, value}}]}`. */
class TagBindingListPipe implements PipeTransform<unknown, TagBindingInput[]> {
  transform(body: unknown): TagBindingInput[] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new DomainError('bad-request', [{ detail: 'request body must be a JSON:API document' }]);
    }
    return readTagBindings((body as { data?: unknown }).data, '/data');
  }
}

export function TagBindingList(): ParameterDecorator {
  return Body(new TagBindingListPipe());
}
