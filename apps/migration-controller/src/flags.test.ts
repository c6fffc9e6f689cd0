import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FORKLIFT_API_PORT,
  FLAGS,
  FORKLIFT_API_FLAGS,
  forkliftApiUsage,
  parseFlags,
  parseForkliftApiFlags,
  usage,
} from './flags.js';

const flagOf = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseFlags(argv, env);
  } catch (error) {
    return (error as { field?: string }).field;
  }
  return undefined;
};

describe('flags', () => {
  it('--help lists every flag, both spellings of the address flags, and each non-zero default', () => {
    const text = usage();
    for (const name of Object.keys(FLAGS))
      expect(text).toMatch(new RegExp(`\\n  --${name}[ ,\\n]`));
    expect(text).toContain('--metrics-bind-address, --metrics-addr');
    expect(text).toContain('--health-probe-bind-address, --healthz-addr');
    for (const def of [
      '(default 20)',
      '(default ":8080")',
      '(default ":8081")',
      '(default "/ova")',
    ]) {
      expect(text).toContain(def);
    }
    expect(text).toBe(`Usage: ctrlkit-migration-controller [flags]

Runs Forklift's Plan, Migration, Provider, NetworkMap, StorageMap and Hook controllers
(group forklift.ctrlkit.dev, or forklift.konveyor.io with --api-group) on one manager.

Flags:
  --kubeconfig string
        kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config
  --insecure-skip-tls-verify
        don't verify the apiserver's certificate (overrides the kubeconfig; insecure: for testing only)
  --kube-api-content-type string
        the wire format asked of the apiserver for built-in types: application/vnd.kubernetes.protobuf or application/json (custom resources are JSON either way) (default "application/vnd.kubernetes.protobuf")
  --api-group string
        API group of the Plans, Providers, maps, Hooks and Migrations: forklift.ctrlkit.dev (beside an installed Forklift), or Forklift's forklift.konveyor.io (default "forklift.ctrlkit.dev")
  --leader-elect
        elect a leader with a Lease before running the controllers (one active replica)
  --leader-election-id string
        name of the leader election Lease (default "ctrlkit-migration-controller")
  --leader-election-namespace string
        namespace of the Lease; when unset: the pod's namespace (required outside a cluster)
  --shards-ring string
        run the Plan controller sharded in this ring (needs --leader-elect): every replica reconciles its share of the Plans (and their Migrations), holding a shard Lease in the leader election's namespace; unset: the leader reconciles every Plan
  --max-vm-inflight int
        VMs migrated at once per source provider, as in Forklift (env MAX_VM_INFLIGHT) (default 20)
  --metrics-bind-address, --metrics-addr string
        address of /metrics; '0' turns it off (default ":8080")
  --health-probe-bind-address, --healthz-addr string
        address of /healthz and /readyz; '0' turns it off (default ":8081")
  --ova-catalog-path string
        where the ova Providers' NFS shares are mounted: a Provider with spec.url server:/path reads <this>/<server>/<path> (default "/ova")
  --destination string
        where VMs go: 'kubevirt' (DataVolumes, conversion pods, VirtualMachines; needs KubeVirt and CDI) or 'configmap' (a ConfigMap per disk and VM, to try plans without KubeVirt) (default "kubevirt")
  --virt-v2v-image string
        image of the guest conversion (virt-v2v) pods, as in Forklift (env VIRT_V2V_IMAGE) (default "quay.io/kubev2v/forklift-virt-v2v:latest")
  --log-level string
        trace, debug, info, warn, error or fatal (JSON lines on stdout) (default "info")
  --help
        print this help and exit
`);
    expect(parseFlags(['--help'], {}).help).toBe(true);
  });

  it('defaults: no leader election, 20 VMs in flight, controller-runtime addresses, /ova, info', () => {
    expect(parseFlags([], {})).toEqual({
      kubeconfig: undefined,
      insecureSkipTlsVerify: false,
      kubeApiContentType: 'application/vnd.kubernetes.protobuf',
      apiGroup: 'forklift.ctrlkit.dev',
      leaderElect: false,
      leaderElectionId: 'ctrlkit-migration-controller',
      leaderElectionNamespace: undefined,
      shardsRing: undefined,
      maxVmInflight: 20,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      ovaCatalogPath: '/ova',
      destination: 'kubevirt',
      virtV2vImage: 'quay.io/kubev2v/forklift-virt-v2v:latest',
      logLevel: 'info',
      help: false,
    });
  });

  it('accepts both spellings of the address flags, and MAX_VM_INFLIGHT from the environment', () => {
    expect(parseFlags(['--metrics-addr=:9090', '--healthz-addr', '0'], {})).toMatchObject({
      metricsBindAddress: ':9090',
      healthProbeBindAddress: '0',
    });
    expect(
      parseFlags(['--metrics-bind-address=:1', '--metrics-addr=:1'], {}).metricsBindAddress,
    ).toBe(':1');
    expect(parseFlags([], { MAX_VM_INFLIGHT: '5' }).maxVmInflight).toBe(5);
    expect(parseFlags(['--max-vm-inflight=7'], { MAX_VM_INFLIGHT: '5' }).maxVmInflight).toBe(7);
    expect(parseFlags(['--leader-elect', '--leader-election-namespace=ns'], {})).toMatchObject({
      leaderElect: true,
      leaderElectionNamespace: 'ns',
    });
  });

  it('--shards-ring names the ring, with --leader-elect', () => {
    expect(parseFlags(['--leader-elect', '--shards-ring', 'plans'], {}).shardsRing).toBe('plans');
  });

  it('--virt-v2v-image, else VIRT_V2V_IMAGE, else the default; an empty one is rejected', () => {
    expect(parseFlags(['--virt-v2v-image=registry.local/v2v:1.2'], {}).virtV2vImage).toBe(
      'registry.local/v2v:1.2',
    );
    expect(parseFlags([], { VIRT_V2V_IMAGE: 'env/v2v:2' }).virtV2vImage).toBe('env/v2v:2');
    expect(
      parseFlags(['--virt-v2v-image', 'flag/v2v:3'], { VIRT_V2V_IMAGE: 'env/v2v:2' }).virtV2vImage,
    ).toBe('flag/v2v:3');
    expect(() => parseFlags(['--virt-v2v-image='], {})).toThrow(/--virt-v2v-image/);
    expect(usage()).toContain('--virt-v2v-image');
  });

  it('rejects bad values naming the flag', () => {
    expect(flagOf(['--max-vm-inflight=0'])).toBe('--max-vm-inflight');
    expect(flagOf(['--max-vm-inflight=x'])).toBe('--max-vm-inflight');
    expect(flagOf([], { MAX_VM_INFLIGHT: '-1' })).toBe('--max-vm-inflight');
    expect(flagOf(['--log-level=loud'])).toBe('--log-level');
    expect(flagOf(['--destination=vsphere'])).toBe('--destination');
    expect(flagOf(['--leader-election-id=Not_Valid'])).toBe('--leader-election-id');
    expect(flagOf(['--ova-catalog-path=relative'])).toBe('--ova-catalog-path');
    expect(flagOf(['--metrics-addr=:1', '--metrics-bind-address=:2'])).toBe(
      '--metrics-bind-address',
    );
    expect(flagOf(['--bogus'])).toBe('flags');
    expect(flagOf(['--leader-elect', '--shards-ring=Plans_1'])).toBe('--shards-ring');
    expect(() => parseFlags(['--shards-ring=plans'], {})).toThrow(
      'invalid --shards-ring: needs --leader-elect (the Provider, map, Hook and Migration controllers run on the leader only)',
    );
    expect(() => parseFlags(['--destination=vsphere'], {})).toThrow(
      'invalid --destination: must be one of kubevirt, configmap, got "vsphere"',
    );
  });
});

describe('ctrlkit-forklift-api flags', () => {
  it("--help lists every flag; the defaults are forklift-api's (port 8443) and controller-runtime's cert dir", () => {
    const text = forkliftApiUsage();
    for (const name of Object.keys(FORKLIFT_API_FLAGS))
      expect(text).toMatch(new RegExp(`\\n  --${name}[ ,\\n]`));
    const flags = parseForkliftApiFlags([], {});
    expect(flags).toMatchObject({
      port: DEFAULT_FORKLIFT_API_PORT,
      certDir: '/tmp/k8s-webhook-server/serving-certs',
      certName: 'tls.crt',
      keyName: 'tls.key',
      apiGroup: 'forklift.ctrlkit.dev',
    });
  });

  it("reads forklift-api's API_TLS_CERTIFICATE, API_TLS_KEY and API_PORT", () => {
    const flags = parseForkliftApiFlags([], {
      API_TLS_CERTIFICATE: '/var/run/secrets/forklift-api-serving-cert/tls.crt',
      API_TLS_KEY: '/var/run/secrets/forklift-api-serving-cert/tls.key',
      API_PORT: '9443',
    });
    expect(flags).toMatchObject({
      certDir: '/var/run/secrets/forklift-api-serving-cert',
      certName: 'tls.crt',
      keyName: 'tls.key',
      port: 9443,
    });
  });

  it('refuses half a certificate, a key in another folder, and a bad port, naming the flag', () => {
    const fieldOf = (argv: string[]) => {
      try {
        parseForkliftApiFlags(argv, {});
      } catch (error) {
        return (error as { field?: string }).field;
      }
      return undefined;
    };
    expect(fieldOf(['--tls-cert-file=/a/tls.crt'])).toBe('--tls-private-key-file');
    expect(fieldOf(['--tls-private-key-file=/a/tls.key'])).toBe('--tls-cert-file');
    expect(fieldOf(['--tls-cert-file=/a/tls.crt', '--tls-private-key-file=/b/tls.key'])).toBe(
      '--tls-private-key-file',
    );
    expect(fieldOf(['--port=0'])).toBe('--port');
  });
});
