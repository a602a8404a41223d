export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

/** Content types whose bodies the JSON parser reads; everything else reaches handlers as a raw stream. */
export const JSON_BODY_TYPES = ['application/json', JSONAPI_MEDIA_TYPE, 'application/*+json'];
