/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency) against a real
 * service: the server scenarios that apply to a stateless tools server. The suite needs Node 22; it runs
 * under `npx -p node@22`, which fetches that Node from the npm registry the first time. When the package or
 * Node 22 cannot be had, the test fails with the reason in CI and is skipped (with the reason) elsewhere.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const suiteEntry = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const scenarioTimeoutMs = 120_000;

interface ScenarioRun {
  exitCode: number;
  output: string;
}

/** Runs one scenario without blocking this process (the service under test lives in it). */
function runScenario(url: string, scenario: string): Promise<ScenarioRun> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['-y', '-p', 'node@22', 'node', suiteEntry, 'server', '--url', url, '--scenario', scenario],
      { cwd: projectRoot, timeout: scenarioTimeoutMs, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ exitCode, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/** `Passed: 2/2, 0 failed, 0 warnings` -> counts; undefined when the suite never got to report. */
function summary(output: string): { passed: number; total: number; failed: number; warnings: number } | undefined {
  const match = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
  return match ? { passed: Number(match[1]), total: Number(match[2]), failed: Number(match[3]), warnings: Number(match[4]) } : undefined;
}

describe('MCP: official conformance suite (server scenarios)', function () {
  this.timeout(scenarioTimeoutMs + 30_000);
  let service: TestService;

  before(async function () {
    if (!existsSync(suiteEntry)) {
      const reason = 'the devDependency @modelcontextprotocol/conformance is not installed (npm install)';
      if (process.env.CI) throw new Error(reason);
      console.warn(`skipping the MCP conformance suite: ${reason}`);
      this.skip();
    }
    service = await startTestService();
  });

  after(async () => service?.stop());

  // Each scenario: its name and how many checks it reports (all must pass, no warnings).
  for (const [scenario, checks] of [['server-initialize', 1], ['ping', 1], ['tools-list', 1], ['dns-rebinding-protection', 2]] as const) {
    it(`${scenario}: every check passes`, async function () {
      const run = await runScenario(`${service.url}/mcp`, scenario);
      const counts = summary(run.output);
      if (!counts) {
        // No report at all: npx could not fetch node@22 or the suite did not start (offline, registry down).
        const reason = `the conformance suite did not run (exit ${run.exitCode}); is node@22 reachable through npx? Output:\n${run.output.slice(-2000)}`;
        if (process.env.CI) throw new Error(reason);
        console.warn(`skipping ${scenario}: ${reason}`);
        this.skip();
      }
      expect({ exitCode: run.exitCode, ...counts }, run.output).to.deep.equal({ exitCode: 0, passed: checks, total: checks, failed: 0, warnings: 0 });
    });
  }
});
