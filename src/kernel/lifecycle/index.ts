export { RequestCreator, hashBody, type Caller, type CreateOutcome } from './create-request.js';
export { RequestWorker } from './request-worker.js';
export { RequestFinisher } from './finish-request.js';
export { Sweeper } from './sweeper.js';
export { toRequestObject, requestUrl, type RequestObject, type AcceptedResponse } from './request-view.js';
export type { LifecycleSettings } from './lifecycle-settings.js';
export { RequestCanceller, cancelledMessage } from './cancel-request.js';
export { RetentionPurge, type RetentionSettings } from './retention-purge.js';
