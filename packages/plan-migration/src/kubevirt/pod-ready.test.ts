import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isPodReady } from './pod-ready.js';

const running = { running: { startedAt: new Date() } };
const container = (name: string, ready: boolean, state: object = running): V1ContainerStatus =>
  ({ name, ready, state, image: 'i', imageID: 'i', restartCount: 0 }) as V1ContainerStatus;
const pod = (phase: string, statuses: V1ContainerStatus[], deleting = false): V1Pod => ({
  metadata: { name: 'virt-launcher', ...(deleting && { deletionTimestamp: new Date() }) },
  status: { phase, containerStatuses: statuses },
});

describe('isPodReady (KubeVirt)', () => {
  it('is ready when every container but a running compute container is ready', () => {
    expect(
      isPodReady(pod('Running', [container('compute', false), container('sidecar', true)])),
    ).toBe(true);
  });

  it('is not ready while another container is not ready', () => {
    expect(
      isPodReady(pod('Running', [container('compute', true), container('sidecar', false)])),
    ).toBe(false);
  });

  it('needs the compute container and the istio proxy running, not ready', () => {
    expect(isPodReady(pod('Running', [container('compute', false, { waiting: {} })]))).toBe(false);
    expect(isPodReady(pod('Running', [container('istio-proxy', false)]))).toBe(true);
    expect(isPodReady(pod('Running', [container('istio-proxy', false, { waiting: {} })]))).toBe(
      false,
    );
  });

  it('is not ready when not Running, down or going down', () => {
    expect(isPodReady(pod('Pending', [container('compute', false)]))).toBe(false);
    expect(isPodReady(pod('Succeeded', []))).toBe(false);
    expect(isPodReady(pod('Running', [container('compute', true)], true))).toBe(false);
    expect(
      isPodReady(pod('Running', [container('compute', true, { terminated: { exitCode: 0 } })])),
    ).toBe(false);
  });
});
