export {
  createClient,
  DEFAULT_BASE_URL,
  type ClientOptions,
  type InvokeInput,
  type LaunchedSearch,
  type LaunchSearchBody,
  type PeopleOptions,
  type Person,
  type Project,
  type RetryOptions,
  type Search,
  type ShortlistMember,
  type ShortlistMembersAdded,
  type SourcingClient,
  type WaitOptions,
} from './client';
export { SourcingApiError } from './errors';
export { operations, type OperationName } from './operations.generated';
export type { components, paths } from './schema';
export { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifyWebhookSignature, type VerifyOptions } from './webhooks';
