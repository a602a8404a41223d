export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
