// The objects the informer benches cache, per resource: how one is built for seeding, and the
// merge patch the update stream sends to it.

/** The resources the benches seed and watch, as `forResource` and the URL name them. */
export const RESOURCES = ['configmaps', 'pods'];

/** Compact JSON bytes of one ConfigMap as BENCHMARKS.md measured it (209 of managedFields). */
const configMapBytes = 1474;

const labels = { 'app.kubernetes.io/name': 'informer-bench' };

function configMap(name, namespace, payload) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels },
    data: { payload },
  };
}

/**
 * A pod as a Deployment's ReplicaSet creates it: owner reference, pod-template-hash, an app
 * container with ports, env, resources, probes and mounts, a sidecar, the projected
 * ServiceAccount token volume and the default tolerations. No scheduler runs on the local
 * control plane, so it stays Pending.
 */
function pod(name, namespace) {
  const hash = '7d9f8c6b5d';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { ...labels, 'app.kubernetes.io/component': 'web', 'pod-template-hash': hash },
      annotations: { 'kubectl.kubernetes.io/default-container': 'web' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `web-${hash}`,
          uid: '0b6c1d0e-8a59-4d47-9b5e-3f1f0c2a7e11',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      serviceAccountName: 'default',
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'web',
          image: 'registry.k8s.io/e2e-test-images/agnhost:2.53',
          args: ['netexec', '--http-port=8080'],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'LOG_LEVEL', value: 'info' },
          ],
          resources: {
            requests: { cpu: '100m', memory: '128Mi' },
            limits: { cpu: '500m', memory: '256Mi' },
          },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http' },
            initialDelaySeconds: 10,
            periodSeconds: 10,
          },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/web', readOnly: true },
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
          ],
        },
        {
          name: 'log-shipper',
          image: 'docker.io/fluent/fluent-bit:3.2.4',
          resources: { requests: { cpu: '20m', memory: '32Mi' } },
          volumeMounts: [{ name: 'logs', mountPath: '/var/log/web' }],
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'web-config' } },
        { name: 'logs', emptyDir: {} },
        {
          name: 'kube-api-access',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
              {
                configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
              },
              {
                downwardAPI: {
                  items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }],
                },
              },
            ],
          },
        },
      ],
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
  };
}

/** Compact JSON of a stored object as a LIST item carries it (no kind/apiVersion). */
export function itemBytes(object) {
  const { kind: _kind, apiVersion: _apiVersion, ...item } = object;
  return Buffer.byteLength(JSON.stringify(item));
}

/**
 * The object `name` of `resource` for seeding; `stored` (a dry run's answer for a first one,
 * or undefined) sizes the ConfigMaps' payload to {@link configMapBytes}.
 */
export function objectFor(resource, name, namespace, stored) {
  if (resource === 'pods') return pod(name, namespace);
  if (stored === undefined) return configMap(name, namespace, '');
  const resourceVersionBytes = '"resourceVersion":"123456",'.length;
  const payloadBytes = Math.max(0, configMapBytes - itemBytes(stored) - resourceVersionBytes);
  return configMap(name, namespace, 'x'.repeat(payloadBytes));
}

/** The merge patch of the update stream's write `i`: a ConfigMap's data, a pod's annotations. */
export function patchFor(resource, i) {
  const seq = `${Date.now()}-${i}`;
  return resource === 'pods' ? { metadata: { annotations: { seq } } } : { data: { seq } };
}
