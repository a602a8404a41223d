import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const nullableString: SchemaObject = { type: 'string', nullable: true };

/** The audit trail answer as OpenAPI describes it (see audit.serializer.ts). */
export const AUDIT_TRAIL_SCHEMA: SchemaObject & { 'x-plain-json': true } = {
  type: 'object',
  // The real service's audit trail is plain JSON, not a JSON:API document (openapi-document.ts).
  'x-plain-json': true,
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          version: { type: 'string', example: '0' },
          type: { type: 'string', enum: ['Resource'] },
          timestamp: { type: 'string', format: 'date-time' },
          auth: {
            type: 'object',
            properties: {
              accessor_id: nullableString,
              accessor_type: { type: 'string', enum: ['user', 'team', 'organization', 'agent', 'anonymous'] },
              description: { ...nullableString, description: 'the username, for users' },
              type: { type: 'string', enum: ['Client', 'Anonymous'] },
              impersonator_id: nullableString,
              organization_id: { ...nullableString, description: 'the organization name' },
              token_id: nullableString,
            },
          },
          request: {
            type: 'object',
            properties: {
              id: nullableString,
              method: { type: 'string' },
              route: { type: 'string', example: '/api/v2/workspaces/:id' },
              client_address: nullableString,
              status: { type: 'integer' },
              outcome: { type: 'string', enum: ['success', 'failure'] },
              error_code: {
                ...nullableString,
                description:
                  "A refusal's code, as on its JSON:API error object (`NAME_TAKEN`); null otherwise",
              },
            },
          },
          resource: {
            type: 'object',
            properties: {
              id: nullableString,
              type: { type: 'string' },
              action: { type: 'string' },
              meta: { type: 'object', nullable: true },
            },
          },
        },
      },
    },
    pagination: {
      type: 'object',
      properties: Object.fromEntries(
        ['current_page', 'page_size', 'prev_page', 'next_page', 'total_pages', 'total_count'].map((k) => [
          k,
          { type: 'integer', nullable: k === 'prev_page' || k === 'next_page' },
        ]),
      ),
    },
  },
};
