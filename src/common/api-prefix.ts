/** Path prefix of the JSON:API surface; controllers outside it (bootstrap, registry protocol, uploads) say so. */
export const API_V2 = 'api/v2';
