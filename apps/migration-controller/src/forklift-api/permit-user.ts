//! The permission check of forklift-api's admitters: may the requesting user do this? Asked through a SubjectAccessReview (Forklift's util.PermitUser).

import type { AdmissionRequest } from '@ctrlkit/runtime/webhook';
import { denied } from './denied.js';
import type { ForkliftApiClient } from './forklift-api-client.js';

/** The verbs the admitters ask about (Forklift's `util.Get`, `util.Create`). */
export type PermitVerb = 'get' | 'create';

/** What the user must be allowed: a verb on a resource of a group, in a namespace, by name or on any. */
export interface Permission {
  readonly group: string;
  readonly resource: string;
  readonly verb: PermitVerb;
  readonly namespace: string;
  /** The object's name; `''`: any object of the resource (e.g. to create one). */
  readonly name: string;
}

interface SubjectAccessReviewStatus {
  status?: { allowed?: boolean; reason?: string; evaluationError?: string };
}

/**
 * Asks the apiserver whether the user of `request` (its `userInfo`: username, uid, groups,
 * extra) may do `permission`, with an `authorization.k8s.io/v1` SubjectAccessReview, so that
 * the webhook's own rights never stand in for the user's. Resolves when allowed; throws the
 * refusal (code 400, as Forklift) naming the user, the verb, the resource, the group, the
 * namespace and the authorizer's reason. An error of the review itself is thrown as is.
 */
export async function permitUser(
  client: ForkliftApiClient,
  request: AdmissionRequest,
  permission: Permission,
): Promise<void> {
  const user = request.userInfo;
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: {},
    spec: {
      resourceAttributes: {
        group: permission.group,
        resource: permission.resource,
        namespace: permission.namespace,
        name: permission.name,
        verb: permission.verb,
      },
      user: user.username ?? '',
      uid: user.uid ?? '',
      groups: [...(user.groups ?? [])],
      extra: Object.fromEntries(
        Object.entries(user.extra ?? {}).map(([key, values]) => [key, [...values]]),
      ),
    },
  };
  const answer = (await client.create(
    'authorization.k8s.io/v1/subjectaccessreviews',
    review,
  )) as SubjectAccessReviewStatus;
  if (answer.status?.allowed === true) return;
  const resource =
    permission.name === '' ? permission.resource : `${permission.resource}/${permission.name}`;
  throw denied(
    `Action is forbidden: User ${JSON.stringify(user.username ?? '')} cannot ${permission.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(permission.group)} in the namespace ${JSON.stringify(permission.namespace)}: ${answer.status?.reason ?? ''}`,
  );
}
