// @questline/client: typed calls to the Questline API (types generated from its OpenAPI document).
export type { components, ErrorCode, operations, paths } from './schema.js';
