/**
 * Test helpers: a {@link FakeClock} that moves only when a test steps it, and
 * {@link waitFor}, the polling helper for tests on a real control plane, and
 * {@link olderNode}/{@link runOnOlderNode} for a bin's test on an older Node, and
 * {@link loadedModules}, what a Node program loads.
 *
 * @packageDocumentation
 */

export { DEFAULT_FAKE_CLOCK_START_MS, FakeClock } from './testing/fake-clock.js';
export { loadedModules } from './testing/loaded-modules.js';
export {
  OLDER_NODE_PATH,
  type OlderNode,
  type OlderNodeRun,
  olderNode,
  runOnOlderNode,
} from './testing/older-node.js';
export {
  DEFAULT_WAIT_FOR_INTERVAL_MS,
  DEFAULT_WAIT_FOR_TIMEOUT_MS,
  type WaitForOptions,
  waitFor,
} from './testing/wait-for.js';
