//! The name rules Kubernetes (and Forklift) apply to a rendered name: DNS-1123 labels and subdomains.

import { DNS1123_LABEL_PATTERN, DNS1123_SUBDOMAIN_PATTERN } from '../api/plan.js';

const label = new RegExp(DNS1123_LABEL_PATTERN);
const subdomain = new RegExp(DNS1123_SUBDOMAIN_PATTERN);

/** The longest DNS-1123 label: 63 characters. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
/** The longest DNS-1123 subdomain: 253 characters. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** A DNS-1123 label: at most 63 lower-case alphanumerics and `-`, alphanumeric at both ends. */
export function isDNS1123Label(value: string): boolean {
  return value.length > 0 && value.length <= DNS1123_LABEL_MAX_LENGTH && label.test(value);
}

/** A DNS-1123 subdomain: at most 253 characters of dot-separated labels. */
export function isDNS1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && subdomain.test(value);
}
