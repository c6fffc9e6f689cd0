//! Label selectors, parsed from their string form or a `V1LabelSelector`, matched in memory.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1LabelSelector } from '@kubernetes/client-node';

/** Matches a set of labels. */
export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

/** A selector: its string form (`app=web,tier in (a,b),!legacy`), a `V1LabelSelector`, or a matcher. */
export type LabelSelectorLike = string | V1LabelSelector | LabelMatcher;

type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

/**
 * Turns a selector into a matcher. Supports `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k` and `!k`, and `V1LabelSelector`'s `matchLabels` and
 * `matchExpressions` (`In`, `NotIn`, `Exists`, `DoesNotExist`). An empty selector matches
 * everything. Throws `InvalidArgumentError` (field `selector`) when it cannot be parsed.
 */
export function toLabelMatcher(selector: LabelSelectorLike | undefined): LabelMatcher {
  if (selector === undefined) return () => true;
  if (typeof selector === 'function') return selector;
  const requirements =
    typeof selector === 'string' ? parseSelector(selector) : fromLabelSelector(selector);
  if (requirements.length === 0) return () => true;
  return (labels) => {
    const l = labels ?? {};
    for (const requirement of requirements) if (!requirement(l)) return false;
    return true;
  };
}

function parseSelector(text: string): Requirement[] {
  const requirements: Requirement[] = [];
  for (const part of splitTopLevel(text)) {
    const term = part.trim();
    if (term === '') continue;
    let m = /^!\s*([^\s=!(),]+)$/.exec(term);
    if (m) {
      const key = m[1] as string;
      requirements.push((l) => !(key in l));
      continue;
    }
    m = /^([^\s=!(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (m) {
      const key = m[1] as string;
      const values = new Set((m[3] as string).split(',').map((v) => v.trim()));
      if (m[2] === 'in') requirements.push((l) => key in l && values.has(l[key] as string));
      else requirements.push((l) => !(key in l) || !values.has(l[key] as string));
      continue;
    }
    m = /^([^\s=!(),]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(term);
    if (m) {
      const key = m[1] as string;
      const value = m[3] as string;
      if (m[2] === '!=') requirements.push((l) => l[key] !== value);
      else requirements.push((l) => l[key] === value);
      continue;
    }
    m = /^([^\s=!(),]+)$/.exec(term);
    if (m) {
      const key = m[1] as string;
      requirements.push((l) => key in l);
      continue;
    }
    throw new InvalidArgumentError(
      'selector',
      `cannot parse ${JSON.stringify(term)} in ${JSON.stringify(text)}`,
    );
  }
  return requirements;
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function fromLabelSelector(selector: V1LabelSelector): Requirement[] {
  if (selector === null || typeof selector !== 'object') {
    throw new InvalidArgumentError('selector', 'must be a string, a V1LabelSelector or a function');
  }
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    requirements.push((l) => l[key] === value);
  for (const expression of selector.matchExpressions ?? []) {
    const key = expression.key;
    const values = new Set(expression.values ?? []);
    switch (expression.operator) {
      case 'In':
        requirements.push((l) => key in l && values.has(l[key] as string));
        break;
      case 'NotIn':
        requirements.push((l) => !(key in l) || !values.has(l[key] as string));
        break;
      case 'Exists':
        requirements.push((l) => key in l);
        break;
      case 'DoesNotExist':
        requirements.push((l) => !(key in l));
        break;
      default:
        throw new InvalidArgumentError(
          'selector.matchExpressions.operator',
          `unknown operator ${JSON.stringify(expression.operator)}`,
        );
    }
  }
  return requirements;
}
