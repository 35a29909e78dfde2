/** A pino destination that keeps every line in memory, so a test can read exactly what the service logged. */
import type { DestinationStream } from 'pino';

export class CapturedLog implements DestinationStream {
  private readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
    if (process.env.TEST_LOG_LEVEL) process.stderr.write(line);
  }

  text(): string {
    return this.lines.join('');
  }

  /** The parsed lines whose `msg` is `message`. */
  entries(message: string): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === message);
  }
}
