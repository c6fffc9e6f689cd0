import type { AdmissionRequest } from '@ctrlkit/runtime/webhook';
import { describe, expect, it } from 'vitest';
import type { ForkliftApiClient } from './forklift-api-client.js';
import { permitUser } from './permit-user.js';

const request = {
  uid: 'r1',
  operation: 'CREATE',
  kind: { group: 'forklift.ctrlkit.dev', version: 'v1beta1', kind: 'Migration' },
  resource: { group: 'forklift.ctrlkit.dev', version: 'v1beta1', resource: 'migrations' },
  userInfo: {
    username: 'alice',
    uid: 'u-1',
    groups: ['team', 'system:authenticated'],
    extra: { scopes: ['a', 'b'] },
  },
} as AdmissionRequest;

/** A client whose SubjectAccessReview create answers `status`, recording what it was sent. */
function reviewer(status: { allowed: boolean; reason?: string }) {
  const sent: Array<{ resource: unknown; body: unknown }> = [];
  const client = {
    create: async (resource: unknown, body: unknown) => {
      sent.push({ resource, body });
      return { ...(body as object), status };
    },
  } as unknown as ForkliftApiClient;
  return { client, sent };
}

const createVms = {
  group: 'kubevirt.io',
  resource: 'virtualmachines',
  verb: 'create',
  namespace: 'vms',
  name: '',
} as const;

describe('permitUser (Forklift util.PermitUser)', () => {
  it("asks a SubjectAccessReview for the request's user: name, uid, groups and extra", async () => {
    const { client, sent } = reviewer({ allowed: true });
    await permitUser(client, request, createVms);
    expect(sent).toEqual([
      {
        resource: 'authorization.k8s.io/v1/subjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          metadata: {},
          spec: {
            resourceAttributes: {
              group: 'kubevirt.io',
              resource: 'virtualmachines',
              namespace: 'vms',
              name: '',
              verb: 'create',
            },
            user: 'alice',
            uid: 'u-1',
            groups: ['team', 'system:authenticated'],
            extra: { scopes: ['a', 'b'] },
          },
        },
      },
    ]);
  });

  it("refuses with Forklift's message and the authorizer's reason, code 400; a named object is resource/name", async () => {
    const { client } = reviewer({ allowed: false, reason: 'no RBAC policy matched' });
    await expect(permitUser(client, request, createVms)).rejects.toMatchObject({
      reason: 'Denied',
      code: 400,
      message:
        'Action is forbidden: User "alice" cannot create resource "virtualmachines" in API group "kubevirt.io" in the namespace "vms": no RBAC policy matched',
    });
    await expect(
      permitUser(client, request, { ...createVms, verb: 'get', name: 'db-1' }),
    ).rejects.toThrow('cannot get resource "virtualmachines/db-1"');
  });

  it('passes an error of the review itself on', async () => {
    const client = {
      create: async () => {
        throw new Error('connection refused');
      },
    } as unknown as ForkliftApiClient;
    await expect(permitUser(client, request, createVms)).rejects.toThrow('connection refused');
  });
});
