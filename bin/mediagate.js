#!/usr/bin/env node
// The `mediagate` command. The code is TypeScript run through tsx: no build step, on a clone or installed.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
