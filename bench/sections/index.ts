/**
 * Further bench sections, each a module that measures one target and returns its part of docs/BENCHMARKS.md
 * (markdown, starting with a `## ` heading). `npm run bench` runs them after the embedded and production
 * scenarios, in this order. `BENCH_SECTIONS_ONLY=1` runs only the sections (printed; docs/BENCHMARKS.md is left
 * alone), and `BENCH_ONLY=<name>,<name>` picks which.
 */
export interface BenchSection {
  name: string;
  run(): Promise<string>;
}

export const benchSections: BenchSection[] = [];
benchSections.push((await import('./production.js')).productionSection);
benchSections.push((await import('./vendor-scale.js')).vendorScale);
benchSections.push((await import('./reference.js')).referenceSection);
benchSections.push((await import('./longpoll.js')).longPollSection);
