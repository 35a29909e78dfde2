import minimaxPlugin from '../../../plugins/minimax/index.js';
import { describePluginBasics } from '../../support/vendor-conformance.js';
import { API, CONFIG } from './minimax-test-kit.js';

// Neither cancel nor reconcile: MiniMax documents no way to either.
describePluginBasics(minimaxPlugin, { operations: [], polled: ['video.generate'], defaultBaseUrl: API, config: CONFIG });
