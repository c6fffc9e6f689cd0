// The audit policy the app tests run their control planes with.

import type { AuditPolicy } from '@ctrlkit/envtest';

/**
 * Every request of a ServiceAccount outside kube-system (the apps under test) at `Metadata`
 * level (who, verb, object, answer; no bodies), once it is answered; nothing else.
 */
export const SERVICE_ACCOUNT_AUDIT_POLICY: AuditPolicy = {
  omitStages: ['RequestReceived'],
  rules: [
    { level: 'None', userGroups: ['system:serviceaccounts:kube-system'] },
    { level: 'Metadata', userGroups: ['system:serviceaccounts'] },
    { level: 'None' },
  ],
};
