export { ApiError, type FieldError } from './api-error.js';
export { errorCatalogue, errorTypeUri, type ErrorCode } from './error-catalogue.js';
