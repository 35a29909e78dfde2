// The embedded worker thread's entry (worker-thread.ts). The kernel is TypeScript run through tsx, and a worker
// thread does not inherit the loader a process was started with (mocha's, the CLI's register), so it registers
// its own before loading the kernel, as bin/mediagate.js does.
import { register } from 'tsx/esm/api';

register();
await import('./thread-main.ts');
