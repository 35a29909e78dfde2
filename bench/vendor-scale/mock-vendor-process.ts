/**
 * The mock vendor in a process of its own (forked by bench/sections/vendor-scale.ts), so its CPU is counted apart
 * and the bench's own work never delays an arrival's timestamp. Options come as JSON in MOCK_VENDOR_OPTIONS; the
 * parent is told the URL, and asks for `stats` and the poll `schedule` record over IPC.
 */
import { MockVendor, type MockVendorOptions } from './mock-vendor.js';
import { PollSchedule } from './poll-schedule.js';

const options = JSON.parse(process.env.MOCK_VENDOR_OPTIONS ?? '{}') as Omit<MockVendorOptions, 'schedule'> & { databaseUrl: string; sampleEveryMs: number };
const schedule = new PollSchedule();
const vendor = new MockVendor({ ...options, schedule });
const url = await vendor.listen();
schedule.start(options.databaseUrl, options.sampleEveryMs);

process.on('message', (message: { type: 'stats' | 'schedule' | 'stop' }) => {
  if (message.type === 'stats') process.send!({ type: 'stats', stats: vendor.stats() });
  else if (message.type === 'schedule') process.send!({ type: 'schedule', schedule: schedule.report() });
  else if (message.type === 'stop') void Promise.all([schedule.stop(), vendor.close()]).finally(() => process.exit(0));
});
process.send!({ type: 'ready', url });
