/** The child processes of this test process, as `ps` lists them (Linux and macOS). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Pids of this process's children whose command name contains `name` (e.g. the ffmpeg a render started). */
export async function childProcessesNamed(name: string): Promise<number[]> {
  const { stdout } = await run('ps', ['-A', '-o', 'pid=,ppid=,comm=']);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, command]) => Number(ppid) === process.pid && command?.includes(name))
    .map(([pid]) => Number(pid));
}
