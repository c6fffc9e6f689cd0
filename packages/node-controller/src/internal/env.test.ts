import type { KubeObject, Wire } from '@ctrlkit/runtime/client';
import { Indexer, newLister } from '@ctrlkit/runtime/informers';
import { FakeRecorder } from '@ctrlkit/runtime/testing';
import type { V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expand, populateEnvironmentVariables } from './env.js';

function lister<T extends KubeObject>(objects: T[]) {
  const indexer = new Indexer<T>();
  for (const o of objects) indexer.add(o);
  return newLister(indexer);
}

const configMap: Wire<V1ConfigMap> = {
  metadata: { name: 'cm', namespace: 'ns' },
  data: { key1: 'v1', key2: 'v2', '1bad': 'x' },
};
const secret: Wire<V1Secret> = {
  metadata: { name: 'sec', namespace: 'ns' },
  data: { skey: Buffer.from('sval').toString('base64') },
};
const kubernetesService: Wire<V1Service> = {
  metadata: { name: 'kubernetes', namespace: 'default' },
  spec: { clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] },
};
const ownService: Wire<V1Service> = {
  metadata: { name: 'my-svc', namespace: 'ns' },
  spec: { clusterIP: '10.0.0.2', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
};

function sources(recorder = new FakeRecorder()) {
  return {
    configMaps: lister([configMap]),
    secrets: lister([secret]),
    services: lister([kubernetesService, ownService]),
    recorder,
  };
}

function pod(
  env: NonNullable<Wire<V1Pod>['spec']>['containers'][number],
  extra: Partial<NonNullable<Wire<V1Pod>['spec']>> = {},
): Wire<V1Pod> {
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { b: '2', a: '1' } },
    spec: { nodeName: 'vk', serviceAccountName: 'sa', containers: [env], ...extra },
  };
}

function envOf(p: Wire<V1Pod>, index = 0): Record<string, string> {
  return Object.fromEntries(
    (p.spec?.containers[index]?.env ?? []).map((e) => [e.name, e.value ?? '']),
  );
}

describe('populateEnvironmentVariables', () => {
  it('resolves env and envFrom for init, regular and ephemeral containers, env winning over envFrom', () => {
    const c = {
      name: 'c',
      envFrom: [{ configMapRef: { name: 'cm' } }, { secretRef: { name: 'sec' }, prefix: 'S_' }],
      env: [
        { name: 'key1', value: 'override' },
        { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'key2' } } },
        { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'sec', key: 'skey' } } },
      ],
    };
    const p = pod(c, {
      initContainers: [structuredClone(c)],
      ephemeralContainers: [structuredClone(c)],
    });
    const recorder = new FakeRecorder();
    populateEnvironmentVariables(p, sources(recorder));
    for (const list of [p.spec?.containers, p.spec?.initContainers, p.spec?.ephemeralContainers]) {
      const env = Object.fromEntries((list?.[0]?.env ?? []).map((e) => [e.name, e.value]));
      expect(env).toMatchObject({
        key1: 'override',
        key2: 'v2',
        S_skey: 'sval',
        FROM_CM: 'v2',
        FROM_SECRET: 'sval',
      });
      expect(list?.[0]?.envFrom).toEqual([]);
    }
    expect(recorder.events).toContain(
      'Warning InvalidEnvironmentVariableNames Keys [1bad] from the EnvFrom configMap ns/cm were skipped since they are considered invalid environment variable names.',
    );
  });

  it('fieldRef: name, namespace, uid, labels (sorted lines), label subscripts, nodeName, spec.host, serviceAccountName', () => {
    const ref = (fieldPath: string) => ({
      name: fieldPath,
      valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } },
    });
    const p = pod({
      name: 'c',
      env: [
        ref('metadata.name'),
        ref('metadata.namespace'),
        ref('metadata.uid'),
        ref('metadata.labels'),
        ref("metadata.labels['a']"),
        ref('spec.nodeName'),
        ref('spec.host'),
        ref('spec.serviceAccountName'),
      ],
    });
    populateEnvironmentVariables(p, sources());
    expect(envOf(p)).toMatchObject({
      'metadata.name': 'p',
      'metadata.namespace': 'ns',
      'metadata.uid': 'u1',
      'metadata.labels': 'a="1"\nb="2"',
      "metadata.labels['a']": '1',
      'spec.nodeName': 'vk',
      'spec.host': 'vk',
      'spec.serviceAccountName': 'sa',
    });
  });

  it('fieldRef errors: unsupported fieldPath, field label not supported, unsupported pod version', () => {
    const one = (fieldPath: string, apiVersion = 'v1') =>
      pod({ name: 'c', env: [{ name: 'X', valueFrom: { fieldRef: { apiVersion, fieldPath } } }] });
    expect(() => populateEnvironmentVariables(one('status.podIP'), sources())).toThrow(
      'unsupported fieldPath: status.podIP',
    );
    expect(() => populateEnvironmentVariables(one('spec.nope'), sources())).toThrow(
      'field label not supported: spec.nope',
    );
    expect(() => populateEnvironmentVariables(one('metadata.name', 'v2'), sources())).toThrow(
      'unsupported pod version',
    );
  });

  it('optional missing refs are skipped with a warning; mandatory ones fail with the upstream messages', () => {
    const recorder = new FakeRecorder();
    const optional = pod({
      name: 'c',
      envFrom: [{ configMapRef: { name: 'nope', optional: true } }],
      env: [
        {
          name: 'A',
          valueFrom: { configMapKeyRef: { name: 'cm', key: 'missing', optional: true } },
        },
        { name: 'B', valueFrom: { secretKeyRef: { name: 'nope', key: 'k', optional: true } } },
      ],
    });
    populateEnvironmentVariables(optional, sources(recorder));
    expect(envOf(optional).A).toBeUndefined();
    expect(recorder.events.map((e) => e.split(' ')[1])).toEqual([
      'OptionalConfigMapNotFound',
      'OptionalConfigMapKeyNotFound',
      'OptionalSecretNotFound',
    ]);

    const mandatory = (env: object) => pod({ name: 'c', env: [env as never] });
    const r2 = new FakeRecorder();
    expect(() =>
      populateEnvironmentVariables(
        mandatory({ name: 'A', valueFrom: { configMapKeyRef: { name: 'x', key: 'k' } } }),
        sources(r2),
      ),
    ).toThrow('configmap "x" not found');
    expect(() =>
      populateEnvironmentVariables(
        mandatory({ name: 'A', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } }),
        sources(r2),
      ),
    ).toThrow('secret "sec" doesn\'t contain the "k" key required by pod p');
    expect(r2.events.map((e) => e.split(' ')[1])).toEqual([
      'MandatoryConfigMapNotFound',
      'MandatorySecretKeyNotFound',
    ]);
  });

  it('service link variables: kubernetes always, own namespace only with enableServiceLinks', () => {
    const on = pod({ name: 'c' });
    populateEnvironmentVariables(on, sources());
    expect(envOf(on)).toMatchObject({
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
      KUBERNETES_PORT: 'tcp://10.0.0.1:443',
      KUBERNETES_PORT_443_TCP: 'tcp://10.0.0.1:443',
      KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_443_TCP_PORT: '443',
      KUBERNETES_PORT_443_TCP_ADDR: '10.0.0.1',
      MY_SVC_SERVICE_HOST: '10.0.0.2',
      MY_SVC_PORT_80_TCP: 'tcp://10.0.0.2:80',
    });
    const off = pod({ name: 'c' }, { enableServiceLinks: false });
    populateEnvironmentVariables(off, sources());
    expect(envOf(off).KUBERNETES_SERVICE_HOST).toBe('10.0.0.1');
    expect(envOf(off).MY_SVC_SERVICE_HOST).toBeUndefined();
  });

  it('service link variables are made once per service object, not once per pod; an updated service anew', () => {
    let reads = 0;
    const spec = { clusterIP: '10.0.0.3', ports: [{ port: 8080, protocol: 'TCP' }] };
    const counted: Wire<V1Service> = {
      metadata: { name: 'counted', namespace: 'ns' },
      get spec() {
        reads++;
        return spec;
      },
    };
    const withCounted = { ...sources(), services: lister([kubernetesService, counted]) };
    const first = pod({ name: 'c' });
    populateEnvironmentVariables(first, withCounted);
    const readsForOnePod = reads;
    const second = pod({ name: 'c' });
    populateEnvironmentVariables(second, withCounted);
    // the second pod reads the clusterIP to choose the service, and nothing more
    expect(reads - readsForOnePod).toBe(1);
    expect(envOf(second)).toEqual(envOf(first));
    expect(envOf(second).COUNTED_PORT_8080_TCP).toBe('tcp://10.0.0.3:8080');
    const updated: Wire<V1Service> = {
      metadata: { name: 'counted', namespace: 'ns' },
      spec: { ...spec, clusterIP: '10.0.0.4' },
    };
    const third = pod({ name: 'c' });
    populateEnvironmentVariables(third, {
      ...withCounted,
      services: lister([kubernetesService, updated]),
    });
    expect(envOf(third).COUNTED_PORT_8080_TCP).toBe('tcp://10.0.0.4:8080');
  });

  it('$(A)$(B) expands against earlier vars and service vars; unknown refs and empty values are kept', () => {
    const p = pod({
      name: 'c',
      env: [
        { name: 'A', value: 'a' },
        { name: 'B', value: 'b' },
        { name: 'AB', value: '$(A)$(B)' },
        { name: 'HOST', value: '$(KUBERNETES_SERVICE_HOST)' },
        { name: 'UNKNOWN', value: '$(NOPE)' },
        { name: 'ESCAPED', value: '$$(A)' },
        { name: 'EMPTY', value: '' },
      ],
    });
    populateEnvironmentVariables(p, sources());
    expect(envOf(p)).toMatchObject({
      AB: 'ab',
      HOST: '10.0.0.1',
      UNKNOWN: '$(NOPE)',
      ESCAPED: '$(A)',
      EMPTY: '',
    });
  });

  it('expand leaves an unterminated reference as written', () => {
    expect(expand('x$(A', () => 'v')).toBe('x$(A');
  });
});
