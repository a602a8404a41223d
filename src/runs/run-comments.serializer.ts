import { ResourceObject } from '../common/jsonapi/document';
import { enumOf, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { COMMENTED_ACTIONS, RunCommentEntity } from './entities/run-comment.entity';

export const COMMENT_DOC: ResourceDoc = {
  type: 'comments',
  attributes: {
    body: str('The comment, as written (at most 10,000 characters)'),
    action: {
      ...enumOf(COMMENTED_ACTIONS, 'The run action it was given with; null when posted on its own'),
      // OpenAPI 3.0: a nullable enum lists null among its values.
      enum: [...COMMENTED_ACTIONS, null],
      nullable: true,
    },
    'created-at': timestamp(),
  },
  relationships: { run: { type: 'runs' }, 'created-by': { type: 'users' } },
  links: ['self'],
};

export const commentPath = (id: string) => `/api/v2/comments/${id}`;

export function serializeComment(c: RunCommentEntity): ResourceObject {
  return {
    id: c.id,
    type: 'comments',
    attributes: { body: c.body, action: c.action, 'created-at': c.createdAt.toISOString() },
    relationships: {
      run: { data: { type: 'runs', id: c.runId } },
      'created-by': { data: c.createdById ? { type: 'users', id: c.createdById } : null },
    },
    links: { self: commentPath(c.id) },
  };
}
