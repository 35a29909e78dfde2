export { ApiKeys, hashApiKey, parseScopes, requireScope, type AuthenticatedKey } from './api-keys.js';
export { roles, roleAtLeast, type Role, type Member } from './members.js';
export { Users, UserInputError, checkEmail, checkRole, normalizeEmail, type UserRecord } from './users.js';
export { ConsoleSessions, sessionIdOf, sessionLifetime, type ConsoleSession } from './sessions.js';
export { LoginThrottle, loginThrottleLimits } from './login-throttle.js';
export { ConsoleSignIn, type SignInResult } from './console-sign-in.js';
export { generatePassword, hashPassword, verifyPassword, passwordProblem } from './passwords.js';
export { LastUseRecorder, type LastUseOptions, type WriteLastUses } from './last-use-recorder.js';
