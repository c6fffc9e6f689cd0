import { describe, expect, it } from 'vitest';
import { BinariesMissingError } from './binaries-missing-error.js';
import { EnvtestError } from './envtest-error.js';
import { NotReadyError } from './not-ready-error.js';
import { PortInUseError } from './port-in-use-error.js';
import { ProcessExitedError } from './process-exited-error.js';

describe('envtest errors', () => {
  it('are recognised by reason, also as plain objects from another copy of the package', () => {
    const error = new PortInUseError('etcd', 2379, ['listen tcp: bind: address already in use']);
    expect(PortInUseError.isInstance(error)).toBe(true);
    expect(EnvtestError.isInstance(error)).toBe(true);
    expect(ProcessExitedError.isInstance(error)).toBe(false);
    // What another copy of @ctrlkit/core brands its errors with: the names of the class chain.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@ctrlkit/core/CtrlkitError')]: ['NotReadyError', 'EnvtestError', 'CtrlkitError'],
      reason: 'NotReady',
    });
    expect(NotReadyError.isInstance(foreign)).toBe(true);
    expect(EnvtestError.isInstance(new Error('plain'))).toBe(false);
    expect(EnvtestError.isInstance(null)).toBe(false);
  });

  it('carry the last log lines of a crashed process', () => {
    const error = new ProcessExitedError('kube-apiserver', { code: 1, signal: null }, [
      'E1 first',
      'E2 last',
    ]);
    expect(error.message).toBe(
      'kube-apiserver exited with code 1; last 2 lines of the kube-apiserver log:\n  E1 first\n  E2 last',
    );
    expect(error.exitCode).toBe(1);
  });

  it('name both ways out when binaries are missing', () => {
    const error = new BinariesMissingError('nothing here', ['KUBEBUILDER_ASSETS (not set)']);
    expect(error.reason).toBe('BinariesMissing');
    expect(error.message).toMatch(/set KUBEBUILDER_ASSETS/);
    expect(error.message).toMatch(/install Go/);
  });
});
