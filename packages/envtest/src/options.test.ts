import { InvalidArgumentError, noopLogger } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { COMPONENTS } from './components.js';
import { EnvtestError } from './errors/envtest-error.js';
import { UnknownComponentError } from './errors/unknown-component-error.js';
import {
  type ControlPlaneOptions,
  DEFAULT_BUILD_JOBS,
  DEFAULT_ETCD_COMPACTION_INTERVAL_MS,
  DEFAULT_KUBERNETES_RELEASE_URL,
  DEFAULT_RELEASE_INDEX_URL,
  DEFAULT_START_TIMEOUT_MS,
  DEFAULT_STOP_TIMEOUT_MS,
  defaultCacheDirectory,
  resolveControlPlaneOptions,
} from './options.js';

const env = { HOME: '/home/tester' };

describe('resolveControlPlaneOptions', () => {
  it('applies the exported defaults', () => {
    const o = resolveControlPlaneOptions({}, env);
    expect(o.startTimeoutMs).toBe(DEFAULT_START_TIMEOUT_MS);
    expect(o.stopTimeoutMs).toBe(DEFAULT_STOP_TIMEOUT_MS);
    expect(o.etcdCompactionIntervalMs).toBe(DEFAULT_ETCD_COMPACTION_INTERVAL_MS);
    expect(o.buildJobs).toBe(DEFAULT_BUILD_JOBS);
    expect(o.watchCache).toBe(true);
    expect(o.build).toBe(true);
    expect(o.apiServerPort).toBeUndefined();
    expect(o.binaryAssetsDirectory).toBeUndefined();
    expect(o.apiServerFlags).toEqual({});
    expect(o.components).toEqual([]);
    expect(o.schedulerFlags).toEqual({});
    expect(o.controllerManagerFlags).toEqual({});
    expect(o.nodeMonitorGracePeriodMs).toBeUndefined();
    expect(o.auditPolicy).toBeUndefined();
    expect(o.crds).toEqual([]);
  });

  it('downloads from the default index unless the environment or the options say otherwise', () => {
    expect(resolveControlPlaneOptions({}, env)).toMatchObject({
      download: true,
      releaseIndexUrl: DEFAULT_RELEASE_INDEX_URL,
      kubernetesReleaseUrl: DEFAULT_KUBERNETES_RELEASE_URL,
    });
    for (const off of ['false', 'FALSE', '0', 'no', 'off']) {
      expect(resolveControlPlaneOptions({}, { CTRLKIT_ENVTEST_DOWNLOAD: off }).download).toBe(
        false,
      );
    }
    expect(resolveControlPlaneOptions({}, { CTRLKIT_ENVTEST_DOWNLOAD: 'true' }).download).toBe(
      true,
    );
    expect(
      resolveControlPlaneOptions({ download: true }, { CTRLKIT_ENVTEST_DOWNLOAD: 'false' })
        .download,
    ).toBe(true);
    const mirror = 'http://mirror.test/envtest-releases.yaml';
    expect(
      resolveControlPlaneOptions({}, { CTRLKIT_ENVTEST_RELEASE_INDEX: mirror }).releaseIndexUrl,
    ).toBe(mirror);
    expect(() => resolveControlPlaneOptions({ releaseIndexUrl: 'ftp://x/y' }, env)).toThrow(
      expect.objectContaining({ field: 'releaseIndexUrl' }),
    );
    const releases = 'http://mirror.test/release';
    expect(
      resolveControlPlaneOptions({}, { CTRLKIT_ENVTEST_KUBERNETES_RELEASE_URL: releases })
        .kubernetesReleaseUrl,
    ).toBe(releases);
    expect(() => resolveControlPlaneOptions({ kubernetesReleaseUrl: 'x' }, env)).toThrow(
      expect.objectContaining({ field: 'kubernetesReleaseUrl' }),
    );
    expect(() => resolveControlPlaneOptions({ download: 'yes' as never }, env)).toThrow(
      expect.objectContaining({ field: 'download' }),
    );
  });

  it('takes an audit policy and CRDs; a crds that is not an array is refused naming it', () => {
    const o = resolveControlPlaneOptions(
      { auditPolicy: { rules: [{ level: 'None' }] }, crds: ['config/crd.yaml'] },
      env,
    );
    expect(o.auditPolicy?.kind).toBe('Policy');
    expect(o.crds).toEqual(['config/crd.yaml']);
    expect(() => resolveControlPlaneOptions({ crds: 'x' as never }, env)).toThrow(
      expect.objectContaining({ field: 'crds' }),
    );
  });

  it('puts requested components in start order, once each', () => {
    const o = resolveControlPlaneOptions(
      {
        components: ['kube-controller-manager', 'kube-scheduler', 'kube-controller-manager'],
        nodeMonitorGracePeriodMs: 8_000,
        controllerManagerFlags: { 'node-monitor-period': '1s' },
      },
      env,
    );
    expect(o.components).toEqual(COMPONENTS);
    expect(o.nodeMonitorGracePeriodMs).toBe(8_000);
    expect(o.controllerManagerFlags).toEqual({ 'node-monitor-period': '1s' });
  });

  it('rejects an unknown component with UnknownComponentError naming it and the entry', () => {
    let thrown: unknown;
    try {
      resolveControlPlaneOptions({ components: ['kube-scheduler', 'kube-proxy' as never] }, env);
    } catch (error) {
      thrown = error;
    }
    expect(UnknownComponentError.isInstance(thrown)).toBe(true);
    expect(EnvtestError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      reason: 'UnknownComponent',
      component: 'kube-proxy',
      field: 'components[1]',
      known: COMPONENTS,
    });
    expect((thrown as Error).message).toBe(
      'unknown control plane component "kube-proxy" (components[1]); known: kube-scheduler, kube-controller-manager',
    );
  });

  it('takes the binaries folder from KUBEBUILDER_ASSETS unless the option is given', () => {
    expect(
      resolveControlPlaneOptions({}, { KUBEBUILDER_ASSETS: '/assets' }).binaryAssetsDirectory,
    ).toBe('/assets');
    expect(
      resolveControlPlaneOptions(
        { binaryAssetsDirectory: '/mine' },
        { KUBEBUILDER_ASSETS: '/assets' },
      ).binaryAssetsDirectory,
    ).toBe('/mine');
  });

  it('puts the cache under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultCacheDirectory({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/ctrlkit/envtest');
    expect(resolveControlPlaneOptions({}, { XDG_CACHE_HOME: '' }).cacheDirectory).toMatch(
      /\.cache\/ctrlkit\/envtest$/,
    );
  });

  it('keeps valid values', () => {
    const o = resolveControlPlaneOptions(
      {
        startTimeoutMs: 5_000,
        stopTimeoutMs: 0,
        apiServerPort: 6443,
        etcdCompactionIntervalMs: 0,
        watchCache: false,
        apiServerFlags: { v: '2', 'feature-gates': ['A=true', 'B=false'] },
        logger: noopLogger,
      },
      env,
    );
    expect(o).toMatchObject({
      startTimeoutMs: 5_000,
      stopTimeoutMs: 0,
      apiServerPort: 6443,
      watchCache: false,
    });
    expect(o.logger).toBe(noopLogger);
  });

  const invalid: Array<[string, ControlPlaneOptions]> = [
    ['startTimeoutMs', { startTimeoutMs: 0 }],
    ['startTimeoutMs', { startTimeoutMs: 1.5 }],
    ['stopTimeoutMs', { stopTimeoutMs: -1 }],
    ['apiServerPort', { apiServerPort: 70_000 }],
    ['etcdCompactionIntervalMs', { etcdCompactionIntervalMs: Number.NaN }],
    ['watchCache', { watchCache: 'no' as unknown as boolean }],
    ['cacheDirectory', { cacheDirectory: '' }],
    ['binaryAssetsDirectory', { binaryAssetsDirectory: 42 as unknown as string }],
    ['buildJobs', { buildJobs: 0 }],
    ['apiServerFlags.--v', { apiServerFlags: { '--v': '2' } }],
    ['etcdFlags.quota', { etcdFlags: { quota: 1 as unknown as string } }],
    ['logger', { logger: { info: () => {} } as never }],
    ['onUnexpectedExit', { onUnexpectedExit: 'crash' as never }],
    ['components', { components: 'kube-scheduler' as never }],
    ['nodeMonitorGracePeriodMs', { nodeMonitorGracePeriodMs: 500 }],
    ['schedulerFlags.--v', { schedulerFlags: { '--v': '2' } }],
    ['controllerManagerFlags.v', { controllerManagerFlags: { v: 2 as unknown as string } }],
  ];
  it.each(invalid)('rejects an invalid %s, naming the field', (field, options) => {
    let thrown: unknown;
    try {
      resolveControlPlaneOptions(options, env);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidArgumentError).field).toBe(field);
    expect((thrown as InvalidArgumentError).reason).toBe('InvalidArgument');
    expect((thrown as Error).message).toContain(field);
  });
});
