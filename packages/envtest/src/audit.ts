//! kube-apiserver's audit log: the policy a control plane is started with, and reading the events it wrote.

import { open } from 'node:fs/promises';
import { InvalidArgumentError } from '@ctrlkit/core';

/** One rule of an audit policy (`audit.k8s.io/v1` `PolicyRule`), as kube-apiserver reads it. */
export interface AuditPolicyRule {
  /** `None`, `Metadata`, `Request` or `RequestResponse`. */
  readonly level: 'None' | 'Metadata' | 'Request' | 'RequestResponse';
  readonly users?: readonly string[];
  readonly userGroups?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resources?: ReadonlyArray<{
    readonly group?: string;
    readonly resources?: readonly string[];
    readonly resourceNames?: readonly string[];
  }>;
  readonly namespaces?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly omitStages?: readonly string[];
}

/** An audit policy (`audit.k8s.io/v1` `Policy`); `apiVersion` and `kind` may be left out. */
export interface AuditPolicy {
  readonly apiVersion?: 'audit.k8s.io/v1';
  readonly kind?: 'Policy';
  readonly rules: readonly AuditPolicyRule[];
  /** Stages not logged for any rule, e.g. `['RequestReceived']`. */
  readonly omitStages?: readonly string[];
}

/** An audit event (`audit.k8s.io/v1` `Event`): the fields a test reads. */
export interface AuditEvent {
  readonly auditID: string;
  /** `RequestReceived`, `ResponseStarted` (watches), `ResponseComplete` or `Panic`. */
  readonly stage: string;
  readonly requestURI: string;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`, … */
  readonly verb: string;
  readonly user: { readonly username: string; readonly groups?: readonly string[] };
  readonly objectRef?: {
    readonly resource?: string;
    readonly subresource?: string;
    readonly namespace?: string;
    readonly name?: string;
    /** Absent for the core group. */
    readonly apiGroup?: string;
    readonly apiVersion?: string;
  };
  readonly responseStatus?: {
    readonly code?: number;
    readonly reason?: string;
    readonly message?: string;
  };
  /** e.g. `authorization.k8s.io/decision` (`allow`, `forbid`) and `authorization.k8s.io/reason`. */
  readonly annotations?: Readonly<Record<string, string>>;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

/** What {@link readAuditLog} read. */
export interface AuditLogRead {
  readonly events: AuditEvent[];
  /** The byte offset after the last complete line read: pass it as `fromOffset` to read only what came later. */
  readonly nextOffset: number;
}

/**
 * Reads the JSON-lines audit log at `path` (a control plane's `auditLogPath`) from byte
 * `fromOffset` (default 0). A line the apiserver is still writing is left for the next read.
 * A log that does not exist yet reads as empty.
 */
export async function readAuditLog(path: string, fromOffset = 0): Promise<AuditLogRead> {
  if (!Number.isInteger(fromOffset) || fromOffset < 0) {
    throw new InvalidArgumentError('fromOffset', `must be an integer >= 0, got ${fromOffset}`);
  }
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { events: [], nextOffset: fromOffset };
    throw error;
  }
  try {
    const { size } = await file.stat();
    const length = Math.max(0, size - fromOffset);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, fromOffset);
    const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
    const text = buffer.subarray(0, end).toString('utf8');
    const events = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as AuditEvent);
    return { events, nextOffset: fromOffset + end };
  } finally {
    await file.close();
  }
}

/** Validates the `auditPolicy` option; returns the policy with `apiVersion` and `kind` set. */
export function resolveAuditPolicy(value: unknown): AuditPolicy | undefined {
  if (value === undefined) return undefined;
  const policy = value as Partial<AuditPolicy> | null;
  if (typeof policy !== 'object' || policy === null || !Array.isArray(policy.rules)) {
    throw new InvalidArgumentError('auditPolicy', 'must be an audit.k8s.io/v1 Policy with rules');
  }
  policy.rules.forEach((rule, i) => {
    if (!['None', 'Metadata', 'Request', 'RequestResponse'].includes(rule?.level)) {
      throw new InvalidArgumentError(
        `auditPolicy.rules[${i}].level`,
        `must be None, Metadata, Request or RequestResponse, got ${JSON.stringify(rule?.level)}`,
      );
    }
  });
  return { ...(policy as AuditPolicy), apiVersion: 'audit.k8s.io/v1', kind: 'Policy' };
}
