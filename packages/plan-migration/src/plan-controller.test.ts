import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { PlanController } from './plan-controller.js';

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('PlanController options', () => {
  it('rejects missing or invalid options, naming the field', () => {
    expect(() => new PlanController({} as never)).toThrow(InvalidArgumentError);
    expect(() => new PlanController({ kubeConfig: kubeConfig() } as never)).toThrow(/sources/);
    expect(
      () =>
        new PlanController({
          kubeConfig: kubeConfig(),
          sources: () => undefined,
          pollIntervalMs: 0,
        }),
    ).toThrow(/pollIntervalMs/);
    expect(
      () =>
        new PlanController({
          kubeConfig: kubeConfig(),
          sources: () => undefined,
          settings: { maxInFlight: 0 },
        }),
    ).toThrow(/settings.maxInFlight/);
  });

  it('builds with defaults', () => {
    expect(
      new PlanController({ kubeConfig: kubeConfig(), sources: () => undefined }).reconciles,
    ).toBe(0);
  });
});
