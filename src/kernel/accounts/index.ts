export { ApiKeys, hashApiKey, parseScopes, requireScope, type AuthenticatedKey } from './api-keys.js';
