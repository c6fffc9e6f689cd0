import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { KUBELET_PROTO_VERSION, KUBELET_PROTOS } from './kubelet-protos.generated.js';

// protobufjs is what @grpc/proto-loader parses with; a devDependency here for this check.
const protobuf = createRequire(import.meta.url)('protobufjs') as {
  parse(source: string, options: { keepCase: boolean }): { root: { toJSON(): unknown } };
};

describe('the pinned kubelet protos', () => {
  it('generated descriptors match the .proto files in proto/ (run generate:proto after changing them)', () => {
    for (const [name, descriptor] of Object.entries(KUBELET_PROTOS)) {
      const source = readFileSync(new URL(`../../proto/${name}.proto`, import.meta.url), 'utf8');
      expect(
        JSON.parse(JSON.stringify(protobuf.parse(source, { keepCase: false }).root.toJSON())),
      ).toEqual(descriptor);
    }
  });

  it('proto/VERSION names the module version the descriptors claim', () => {
    const version = readFileSync(new URL('../../proto/VERSION', import.meta.url), 'utf8');
    expect(version.startsWith(`k8s.io/kubelet ${KUBELET_PROTO_VERSION} (h1:`)).toBe(true);
    expect(Object.keys(KUBELET_PROTOS).sort()).toEqual([
      'dra-health_v1_api',
      'dra-health_v1alpha1_api',
      'dra_v1_api',
      'dra_v1beta1_api',
      'pluginregistration_v1_api',
    ]);
  });
});
