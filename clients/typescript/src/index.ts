// @questline/client: typed calls to the Questline API (types generated from its OpenAPI document),
// tokens, retries, idempotent action logging, paging and webhook verification.
export { createClient, jwtExpiry } from './client.js';
export type { Call, ClientOptions, CredentialsOptions, QuestlineClient, Success, TokenOptions } from './client.js';
export { QuestlineError } from './errors.js';
export type { FieldError, OAuthErrorCode } from './errors.js';
export type { ListInit, ListItem, ListPath } from './paging.js';
export { backoffDelay, isIdempotent, parseRetryAfter } from './retry.js';
export type { RetryOptions } from './retry.js';
export { signWebhook, verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type { VerifyOptions, WebhookEvent, WebhookHeaders } from './webhooks.js';
export type { components, ErrorCode, operations, paths } from './schema.js';
