//! Target names and name templates: `isValidTargetName`, `isValidTemplate` and the template validators.

import { CtrlkitError } from '@ctrlkit/core';
import { DNS1123_LABEL_PATTERN, DNS1123_SUBDOMAIN_PATTERN } from './api/plan.js';

const label = new RegExp(DNS1123_LABEL_PATTERN);
const subdomain = new RegExp(DNS1123_SUBDOMAIN_PATTERN);

/** Thrown by the validators for a template or name that cannot be used. */
export class NameTemplateError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: 'TemplateNotValid' | 'TemplateOutputEmpty' | 'NameNotValid';

  constructor(reason: NameTemplateError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** A DNS-1123 label: at most 63 lower-case alphanumerics and `-`, alphanumeric at both ends. */
export function isDNS1123Label(value: string): boolean {
  return value.length > 0 && value.length <= 63 && label.test(value);
}

/** A DNS-1123 subdomain: at most 253 characters of dot-separated labels. */
export function isDNS1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= 253 && subdomain.test(value);
}

const functions: Record<string, (s: string) => string> = {
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  trim: (s) => s.trim(),
};

/**
 * Executes a Go-style name template against `data` and returns the output. The subset
 * understood: text, `{{.Field}}`, `{{ .Field | lower }}` (`lower`, `upper`, `trim`) and
 * `{{lower .Field}}`. Throws {@link NameTemplateError} for anything else, an unknown
 * field, or an empty output.
 */
export function isValidTemplate(template: string, data: Record<string, string | number>): string {
  let out = '';
  let rest = template;
  for (;;) {
    const open = rest.indexOf('{{');
    if (open < 0) {
      if (rest.includes('}}'))
        throw new NameTemplateError('TemplateNotValid', `unexpected "}}" in ${template}`);
      out += rest;
      break;
    }
    out += rest.slice(0, open);
    const close = rest.indexOf('}}', open);
    if (close < 0)
      throw new NameTemplateError('TemplateNotValid', `unclosed action in ${template}`);
    out += evaluate(rest.slice(open + 2, close).trim(), data, template);
    rest = rest.slice(close + 2);
  }
  if (out === '')
    throw new NameTemplateError('TemplateOutputEmpty', `template output is empty: ${template}`);
  return out;
}

function evaluate(action: string, data: Record<string, string | number>, template: string): string {
  const stages = action.split('|').map((s) => s.trim());
  let value: string | undefined;
  for (const [i, stage] of stages.entries()) {
    const words = stage.split(/\s+/).filter((w) => w !== '');
    const fn = words[0] !== undefined ? functions[words[0]] : undefined;
    if (fn !== undefined) {
      const arg =
        words.length === 2
          ? field(words[1] as string, data, template)
          : words.length === 1 && i > 0
            ? value
            : undefined;
      if (arg === undefined)
        throw new NameTemplateError('TemplateNotValid', `bad call "${stage}" in ${template}`);
      value = fn(arg);
    } else if (words.length === 1 && i === 0) {
      value = field(words[0] as string, data, template);
    } else {
      throw new NameTemplateError(
        'TemplateNotValid',
        `unsupported action "${action}" in ${template}`,
      );
    }
  }
  if (value === undefined)
    throw new NameTemplateError('TemplateNotValid', `empty action in ${template}`);
  return value;
}

function field(word: string, data: Record<string, string | number>, template: string): string {
  if (!/^\.[A-Za-z_][A-Za-z0-9_]*$/.test(word)) {
    throw new NameTemplateError('TemplateNotValid', `unsupported operand "${word}" in ${template}`);
  }
  const value = data[word.slice(1)];
  if (value === undefined) {
    throw new NameTemplateError(
      'TemplateNotValid',
      `can't evaluate field ${word.slice(1)} in ${template}`,
    );
  }
  return String(value);
}

/** An explicit target name must be a DNS-1123 subdomain; empty is fine (the source name is used). */
export function isValidTargetName(targetName: string): void {
  if (targetName === '') return;
  if (!isDNS1123Subdomain(targetName)) {
    throw new NameTemplateError(
      'NameNotValid',
      `Target name is not a valid k8s subdomain: ${targetName}`,
    );
  }
}

function checkLabelOutput(template: string, data: Record<string, string | number>): void {
  if (template === '') return;
  const result = isValidTemplate(template, data);
  if (!isDNS1123Label(result)) {
    throw new NameTemplateError(
      'NameNotValid',
      `Template output is not a valid k8s label [${result}]`,
    );
  }
}

/** A volume name template must render (with `PVCName`, `VolumeIndex`) to a DNS-1123 label. */
export function isValidVolumeNameTemplate(template: string): void {
  checkLabelOutput(template, { PVCName: 'test-pvc', VolumeIndex: 0 });
}

/** A network name template must render (with `NetworkName`, `NetworkNamespace`, `NetworkType`, `NetworkIndex`) to a DNS-1123 label. */
export function isValidNetworkNameTemplate(template: string): void {
  checkLabelOutput(template, {
    NetworkName: 'test-network',
    NetworkNamespace: 'test-namespace',
    NetworkType: 'Multus',
    NetworkIndex: 0,
  });
}

/** A PVC name template must render (with `VmName`, `PlanName`, `DiskIndex`, `RootDiskIndex`) to a DNS-1123 subdomain. */
export function isValidPVCNameTemplate(template: string): void {
  if (template === '') return;
  const result = isValidTemplate(template, {
    VmName: 'test-vm',
    PlanName: 'test-plan',
    DiskIndex: 0,
    RootDiskIndex: 0,
  });
  if (!isDNS1123Subdomain(result)) {
    throw new NameTemplateError(
      'NameNotValid',
      `Template output is not a valid k8s subdomain [${result}]`,
    );
  }
}
