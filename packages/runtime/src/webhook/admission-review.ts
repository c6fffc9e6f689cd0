//! The admission.k8s.io/v1 AdmissionReview wire types a webhook reads and answers.

import type { GroupVersionKind } from '../controller-refs/controller-ref.js';

/** The `request` of an `admission.k8s.io/v1` AdmissionReview, as the apiserver sends it. */
export interface AdmissionRequest {
  /** Identifies this call; the response carries it back. */
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly resource: {
    readonly group: string;
    readonly version: string;
    readonly resource: string;
  };
  readonly subResource?: string;
  readonly requestKind?: GroupVersionKind;
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly userInfo: {
    readonly username?: string;
    readonly uid?: string;
    readonly groups?: readonly string[];
    readonly extra?: Readonly<Record<string, readonly string[]>>;
  };
  /** The object after the change (CREATE, UPDATE); absent for DELETE. */
  readonly object?: unknown;
  /** The object before the change (UPDATE, DELETE). */
  readonly oldObject?: unknown;
  /** True when nothing will be persisted: the handler must have no side effects then. */
  readonly dryRun?: boolean;
  readonly options?: unknown;
}

/** The `status` of a refusal, as a `metav1.Status` (code, reason, message). */
export interface AdmissionStatus {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
}

/** The `response` of an AdmissionReview. */
export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: AdmissionStatus;
  /** Base64 of the JSON Patch (RFC 6902) to apply, for a mutating webhook. */
  readonly patch?: string;
  readonly patchType?: 'JSONPatch';
  readonly warnings?: readonly string[];
}

/** An `admission.k8s.io/v1` AdmissionReview. */
export interface AdmissionReview {
  readonly apiVersion: 'admission.k8s.io/v1';
  readonly kind: 'AdmissionReview';
  readonly request?: AdmissionRequest;
  readonly response?: AdmissionResponse;
}

/** The review that carries `response`. */
export function admissionReview(response: AdmissionResponse): AdmissionReview {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}
