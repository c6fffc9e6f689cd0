//! Resolves a pod's environment before it goes to the provider, as the kubelet does.

import type { Wire } from '@ctrlkit/runtime/client';
import type { EventRecorderLike } from '@ctrlkit/runtime/events';
import type { Lister } from '@ctrlkit/runtime/informers';
import type {
  V1ConfigMap,
  V1Container,
  V1EnvFromSource,
  V1EnvVar,
  V1ObjectFieldSelector,
  V1Pod,
  V1Secret,
  V1Service,
} from '@kubernetes/client-node';
import {
  ReasonInvalidEnvironmentVariableNames,
  ReasonMandatoryConfigMapKeyNotFound,
  ReasonMandatoryConfigMapNotFound,
  ReasonMandatorySecretKeyNotFound,
  ReasonMandatorySecretNotFound,
  ReasonOptionalConfigMapKeyNotFound,
  ReasonOptionalConfigMapNotFound,
  ReasonOptionalSecretKeyNotFound,
  ReasonOptionalSecretNotFound,
} from '../env-event-reasons.js';

/** Where env values come from. */
export interface EnvSources {
  configMaps: Lister<Wire<V1ConfigMap>>;
  secrets: Lister<Wire<V1Secret>>;
  services: Lister<Wire<V1Service>>;
  recorder: EventRecorderLike;
}

const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * Replaces, in every init, regular and ephemeral container of `pod`, `envFrom` and `env` by
 * a flat list of name/value pairs: ConfigMap and Secret refs, field refs, `$(VAR)` expansion
 * and service link variables resolved. Throws when a mandatory source is missing.
 */
export function populateEnvironmentVariables(pod: Wire<V1Pod>, sources: EnvSources): void {
  const spec = pod.spec;
  if (spec === undefined) return;
  const serviceEnv = serviceEnvVarMap(pod, sources.services);
  const all: Wire<V1Container>[] = [
    ...(spec.initContainers ?? []),
    ...spec.containers,
    ...((spec.ephemeralContainers ?? []) as Wire<V1Container>[]),
  ];
  for (const container of all) {
    const env = makeEnvironmentMap(pod, container, sources, serviceEnv);
    container.env = [...env].map(([name, value]) => ({ name, value }));
    container.envFrom = [];
  }
}

function makeEnvironmentMap(
  pod: Wire<V1Pod>,
  container: Wire<V1Container>,
  sources: EnvSources,
  serviceEnv: Map<string, string>,
): Map<string, string> {
  const result = new Map<string, string>();
  for (const envFrom of container.envFrom ?? []) {
    const source = envFromSource(pod, envFrom, sources);
    if (source !== undefined) addEnvFrom(pod, envFrom.prefix ?? '', source, sources, result);
  }

  const lookup = (name: string): string | undefined => result.get(name) ?? serviceEnv.get(name);
  for (const envVar of container.env ?? []) {
    const value = resolveEnvVar(pod, envVar, sources, lookup);
    if (value === undefined) continue;
    result.set(envVar.name, value);
  }

  for (const [name, value] of serviceEnv) if (!result.has(name)) result.set(name, value);
  return result;
}

/** The ConfigMap or Secret an `envFrom` names, with its data. */
interface EnvFromSource {
  kind: 'configMap' | 'secret';
  name: string;
  data: Record<string, string>;
}

/**
 * The data of the ConfigMap or Secret of `envFrom`; undefined (after a warning event) when
 * an optional one is missing or neither is set. A missing mandatory one is an event and an
 * error.
 */
function envFromSource(
  pod: Wire<V1Pod>,
  envFrom: V1EnvFromSource,
  sources: EnvSources,
): EnvFromSource | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  const recorder = sources.recorder;
  if (envFrom.configMapRef !== undefined) {
    const name = envFrom.configMapRef.name ?? '';
    const optional = envFrom.configMapRef.optional === true;
    const cm = sources.configMaps.namespace(namespace).get(name);
    if (cm === undefined) {
      if (optional) {
        recorder.event(
          pod,
          'Warning',
          ReasonOptionalConfigMapNotFound,
          `configmap "${name}" not found`,
        );
        return undefined;
      }
      recorder.event(
        pod,
        'Warning',
        ReasonMandatoryConfigMapNotFound,
        `configmap "${name}" not found`,
      );
      throw new Error(`configmap "${name}" not found`);
    }
    return { kind: 'configMap', name, data: cm.data ?? {} };
  }
  if (envFrom.secretRef !== undefined) {
    const name = envFrom.secretRef.name ?? '';
    const optional = envFrom.secretRef.optional === true;
    const secret = sources.secrets.namespace(namespace).get(name);
    if (secret === undefined) {
      if (optional) {
        recorder.event(pod, 'Warning', ReasonOptionalSecretNotFound, `secret "${name}" not found`);
        return undefined;
      }
      recorder.event(pod, 'Warning', ReasonMandatorySecretNotFound, `secret "${name}" not found`);
      throw new Error(`secret "${name}" not found`);
    }
    return { kind: 'secret', name, data: decodeSecret(secret) };
  }
  return undefined;
}

/** Adds the source's keys (prefixed) to `result`; invalid names are skipped with one warning event. */
function addEnvFrom(
  pod: Wire<V1Pod>,
  prefix: string,
  source: EnvFromSource,
  sources: EnvSources,
  result: Map<string, string>,
): void {
  const invalid: string[] = [];
  for (const [key, value] of Object.entries(source.data)) {
    const envName = prefix + key;
    if (!envVarName.test(envName)) {
      invalid.push(envName);
      continue;
    }
    result.set(envName, value);
  }
  if (invalid.length > 0) {
    invalid.sort();
    const namespace = pod.metadata?.namespace ?? '';
    sources.recorder.event(
      pod,
      'Warning',
      ReasonInvalidEnvironmentVariableNames,
      `Keys [${invalid.join(', ')}] from the EnvFrom ${source.kind} ${namespace}/${source.name} were skipped since they are considered invalid environment variable names.`,
    );
  }
}

/** The event reasons and wording of one kind of key reference. */
interface KeyRefKind {
  kind: 'configmap' | 'secret';
  optionalNotFound: string;
  optionalKeyNotFound: string;
  mandatoryNotFound: string;
  mandatoryKeyNotFound: string;
}

const configMapRef: KeyRefKind = {
  kind: 'configmap',
  optionalNotFound: ReasonOptionalConfigMapNotFound,
  optionalKeyNotFound: ReasonOptionalConfigMapKeyNotFound,
  mandatoryNotFound: ReasonMandatoryConfigMapNotFound,
  mandatoryKeyNotFound: ReasonMandatoryConfigMapKeyNotFound,
};

const secretRef: KeyRefKind = {
  kind: 'secret',
  optionalNotFound: ReasonOptionalSecretNotFound,
  optionalKeyNotFound: ReasonOptionalSecretKeyNotFound,
  mandatoryNotFound: ReasonMandatorySecretNotFound,
  mandatoryKeyNotFound: ReasonMandatorySecretKeyNotFound,
};

/**
 * The value of a `configMapKeyRef`/`secretKeyRef` (`data` undefined when the object is
 * missing), with the kubelet's events: an optional miss is skipped with a Warning, a
 * mandatory one throws.
 */
function keyRefValue(
  pod: Wire<V1Pod>,
  envVar: Wire<V1EnvVar>,
  ref: KeyRefKind,
  name: string,
  key: string,
  optional: boolean | undefined,
  data: Record<string, string> | undefined,
  recorder: EventRecorderLike,
): string | undefined {
  const { kind } = ref;
  if (data === undefined) {
    if (optional === true) {
      recorder.event(
        pod,
        'Warning',
        ref.optionalNotFound,
        `skipping optional envvar "${envVar.name}": ${kind} "${name}" not found`,
      );
      return undefined;
    }
    recorder.event(pod, 'Warning', ref.mandatoryNotFound, `${kind} "${name}" not found`);
    throw new Error(`${kind} "${name}" not found`);
  }
  const value = data[key];
  if (value !== undefined) return value;
  if (optional === true) {
    recorder.event(
      pod,
      'Warning',
      ref.optionalKeyNotFound,
      `skipping optional envvar "${envVar.name}": key "${key}" does not exist in ${kind} "${name}"`,
    );
    return undefined;
  }
  recorder.event(
    pod,
    'Warning',
    ref.mandatoryKeyNotFound,
    `key "${key}" does not exist in ${kind} "${name}"`,
  );
  throw new Error(
    `${kind} "${name}" doesn't contain the "${key}" key required by pod ${pod.metadata?.name ?? ''}`,
  );
}

/** The value of one `env` entry; `undefined` to skip it. */
function resolveEnvVar(
  pod: Wire<V1Pod>,
  envVar: Wire<V1EnvVar>,
  sources: EnvSources,
  lookup: (name: string) => string | undefined,
): string | undefined {
  const from = envVar.valueFrom;
  if (from === undefined) return expand(envVar.value ?? '', lookup);
  const namespace = pod.metadata?.namespace ?? '';
  const recorder = sources.recorder;
  if (from.configMapKeyRef !== undefined) {
    const { name = '', key, optional } = from.configMapKeyRef;
    const cm = sources.configMaps.namespace(namespace).get(name);
    return keyRefValue(
      pod,
      envVar,
      configMapRef,
      name,
      key,
      optional,
      cm && (cm.data ?? {}),
      recorder,
    );
  }
  if (from.secretKeyRef !== undefined) {
    const { name = '', key, optional } = from.secretKeyRef;
    const secret = sources.secrets.namespace(namespace).get(name);
    return keyRefValue(
      pod,
      envVar,
      secretRef,
      name,
      key,
      optional,
      secret && decodeSecret(secret),
      recorder,
    );
  }
  if (from.fieldRef !== undefined) return podFieldValue(from.fieldRef, pod);
  // resourceFieldRef: not resolved, the variable is dropped.
  return undefined;
}

/** Kubernetes `$(VAR)` expansion: `$$` escapes, unknown references stay as written. */
export function expand(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '(') {
      const end = input.indexOf(')', i + 2);
      if (end === -1) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, end);
      const value = name === '' ? undefined : lookup(name);
      out += value ?? `$(${name})`;
      i = end;
    } else {
      out += ch;
    }
  }
  return out;
}

const unsupportedFieldPaths = new Set([
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
]);

/** The value of a downward API `fieldRef`. */
export function podFieldValue(ref: Wire<V1ObjectFieldSelector>, pod: Wire<V1Pod>): string {
  const apiVersion = ref.apiVersion ?? 'v1';
  if (apiVersion !== 'v1') throw new Error(`unsupported pod version: ${apiVersion}`);
  let path = ref.fieldPath;
  const subscript = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (subscript !== null) {
    const map = subscript[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations;
    return map?.[subscript[2] ?? ''] ?? '';
  }
  if (path === 'spec.host') path = 'spec.nodeName';
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata?.labels);
    case 'metadata.annotations':
      return formatMap(pod.metadata?.annotations);
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
  }
  if (unsupportedFieldPaths.has(path)) throw new Error(`unsupported fieldPath: ${path}`);
  throw new Error(`field label not supported: ${path}`);
}

/** `k="v"` lines sorted by key, as the downward API formats labels and annotations. */
function formatMap(map: Record<string, string> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(map?.[k] ?? '')}`)
    .join('\n');
}

function decodeSecret(secret: Wire<V1Secret>): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {}))
    data[k] = Buffer.from(v, 'base64').toString('utf8');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) data[k] = v;
  return data;
}

/** Service link variables a pod sees: `kubernetes` in `default` always, its own namespace's with enableServiceLinks. */
export function serviceEnvVarMap(
  pod: Wire<V1Pod>,
  services: Lister<Wire<V1Service>>,
): Map<string, string> {
  const namespace = pod.metadata?.namespace ?? '';
  const enableServiceLinks = pod.spec?.enableServiceLinks ?? true;
  const chosen = new Map<string, Wire<V1Service>>();
  for (const service of services.list()) {
    const ip = service.spec?.clusterIP;
    if (ip === undefined || ip === '' || ip === 'None') continue;
    const name = service.metadata?.name ?? '';
    const ns = service.metadata?.namespace ?? '';
    if (ns === 'default' && name === 'kubernetes') {
      if (!chosen.has(name)) chosen.set(name, service);
    } else if (ns === namespace && enableServiceLinks) {
      chosen.set(name, service);
    }
  }
  const env = new Map<string, string>();
  for (const service of chosen.values())
    for (const [name, value] of serviceLinkVariables(service)) env.set(name, value);
  return env;
}

/**
 * Each service's link variables, by the informer's object (an updated service is a new
 * object): computed once per service, not once per pod, so every pod's env shares the strings.
 */
const linkVariables = new WeakMap<Wire<V1Service>, ReadonlyArray<readonly [string, string]>>();

/** The link variables of one service (`<NAME>_SERVICE_HOST`, `<NAME>_PORT_<port>_TCP`, …), in the kubelet's order. */
function serviceLinkVariables(service: Wire<V1Service>): ReadonlyArray<readonly [string, string]> {
  const known = linkVariables.get(service);
  if (known !== undefined) return known;
  const env: Array<readonly [string, string]> = [];
  const set = (name: string, value: string): void => {
    env.push([name, value]);
  };
  const prefix = (service.metadata?.name ?? '').toUpperCase().replace(/-/g, '_');
  const ip = service.spec?.clusterIP ?? '';
  const ports = service.spec?.ports ?? [];
  set(`${prefix}_SERVICE_HOST`, ip);
  const first = ports[0];
  if (first !== undefined) set(`${prefix}_SERVICE_PORT`, String(first.port));
  for (const port of ports) {
    if (port.name !== undefined && port.name !== '') {
      set(
        `${prefix}_SERVICE_PORT_${port.name.toUpperCase().replace(/-/g, '_')}`,
        String(port.port),
      );
    }
  }
  if (first !== undefined) {
    set(`${prefix}_PORT`, `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${first.port}`);
  }
  for (const port of ports) {
    const protocol = port.protocol ?? 'TCP';
    const base = `${prefix}_PORT_${port.port}_${protocol.toUpperCase()}`;
    set(base, `${protocol.toLowerCase()}://${ip}:${port.port}`);
    set(`${base}_PROTO`, protocol.toLowerCase());
    set(`${base}_PORT`, String(port.port));
    set(`${base}_ADDR`, ip);
  }
  linkVariables.set(service, env);
  return env;
}
