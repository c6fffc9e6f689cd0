//! Validation of Hooks (Forklift's hook validation): an image reference and a base64 playbook.

import type { Hook } from '../api/hook.js';
import { ResourceConditionType as C, Reason } from '../condition-types.js';
import { Category, type NewCondition, READY, True } from '../conditions.js';

// The grammar of distribution/reference: [domain[:port]/]path[:tag][@digest].
const alphaNumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]*)';
const nameComponent = `${alphaNumeric}(?:${separator}${alphaNumeric})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const name = `(?:${domain}/)?${nameComponent}(?:/${nameComponent})*`;

/** A container image reference (`registry:5000/ns/image:tag@sha256:…`), anchored. */
export const IMAGE_REFERENCE_PATTERN = new RegExp(`^${name}(?::${tag})?(?:@${digest})?$`);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `text` is standard, padded base64 (line breaks ignored), as Go's `base64.StdEncoding`. */
export function isBase64(text: string): boolean {
  return BASE64.test(text.replace(/[\r\n]/g, ''));
}

/**
 * The conditions of a Hook: `InvalidImage` (Critical, NotSet) when `spec.image` is not an
 * image reference, `InvalidPlaybook` (Critical, DataError) when a `spec.playbook` is given
 * and is not base64; then `Ready` when nothing blocks.
 */
export function validateHook(hook: Hook): NewCondition[] {
  const conditions: NewCondition[] = [];
  if (!IMAGE_REFERENCE_PATTERN.test(hook.spec.image ?? '')) {
    conditions.push({
      type: C.InvalidImage,
      status: True,
      reason: Reason.NotSet,
      category: Category.Critical,
      message: 'The image name specified in `Image` is invalid.',
    });
  }
  if (hook.spec.playbook && !isBase64(hook.spec.playbook)) {
    conditions.push({
      type: C.InvalidPlaybook,
      status: True,
      reason: Reason.DataErr,
      category: Category.Critical,
      message: '`Playbook` should contain a base64 encoded playbook.',
    });
  }
  if (conditions.length === 0) {
    conditions.push({
      type: READY,
      status: True,
      category: Category.Required,
      message: 'The hook is ready.',
    });
  }
  return conditions;
}
