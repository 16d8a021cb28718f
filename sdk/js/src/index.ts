/** @svc/sdk: typed game events to svc's ingest endpoint, and experiment assignments. */
export {
  type BackoffOptions,
  backoffCeiling,
  backoffDelay,
  DEFAULT_BACKOFF,
  parseRetryAfter,
} from './backoff.js';
export {
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  SvcClient,
  type SvcClientOptions,
  type SvcErrorEvent,
  SvcRequestError,
  type SvcStats,
  type Timers,
  type TrackArgs,
  type TrackOptions,
  type VariantOptions,
} from './client.js';
export * from './events.gen.js';
export { BoundedQueue, type Queued } from './queue.js';
export { SDK_VERSION } from './version.js';
