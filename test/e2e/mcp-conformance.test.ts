/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency) against a real
 * service: the server scenarios that apply to a stateless tools server. When the package or Node 22 cannot be
 * had, the test fails with the reason in CI and is skipped (with the reason) elsewhere.
 */
import { expect } from 'chai';
import { conformanceInstalled, runConformance, suiteUnavailable } from '../support/conformance-suite.js';
import { startTestService, type TestService } from '../support/test-service.js';

const scenarioTimeoutMs = 120_000;

describe('MCP: official conformance suite (server scenarios)', function () {
  this.timeout(scenarioTimeoutMs + 30_000);
  let service: TestService;

  before(async function () {
    if (!conformanceInstalled()) suiteUnavailable(this, 'the devDependency @modelcontextprotocol/conformance is not installed (npm install)');
    service = await startTestService();
  });

  after(async () => service?.stop());

  // Every check of each scenario must pass, with no warnings (how many checks a scenario has is the suite's).
  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
    it(`${scenario}: every check passes`, async function () {
      const run = await runConformance(['server', '--url', `${service.url}/mcp`, '--scenario', scenario], scenarioTimeoutMs);
      if (!run.counts) suiteUnavailable(this, `the conformance suite did not run (exit ${run.exitCode}); is node@22 reachable through npx? Output:\n${run.output.slice(-2000)}`);
      const { passed, total, failed, warnings } = run.counts;
      expect({ exitCode: run.exitCode, failed, warnings, allPassed: passed === total && total > 0 }, run.output).to.deep.equal({ exitCode: 0, failed: 0, warnings: 0, allPassed: true });
      console.log(`      ${scenario}: ${passed}/${total} checks passed`);
    });
  }
});
