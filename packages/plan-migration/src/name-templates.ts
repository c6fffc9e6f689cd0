//! Target names and name templates: `isValidTargetName`, `isValidTemplate` and the template validators.

import { DNS1123_LABEL_PATTERN, DNS1123_SUBDOMAIN_PATTERN } from './api/plan.js';
import { executeTemplate, type TemplateData } from './name-template/execute.js';
import { TEMPLATE_FUNCTIONS } from './name-template/functions.js';
import { parseTemplate } from './name-template/parse.js';
import { NameTemplateError } from './name-template/template-error.js';

export { NameTemplateError };

const label = new RegExp(DNS1123_LABEL_PATTERN);
const subdomain = new RegExp(DNS1123_SUBDOMAIN_PATTERN);

/** A DNS-1123 label: at most 63 lower-case alphanumerics and `-`, alphanumeric at both ends. */
export function isDNS1123Label(value: string): boolean {
  return value.length > 0 && value.length <= 63 && label.test(value);
}

/** A DNS-1123 subdomain: at most 253 characters of dot-separated labels. */
export function isDNS1123Subdomain(value: string): boolean {
  return value.length > 0 && value.length <= 253 && subdomain.test(value);
}

/**
 * Executes a name template, Go text/template as Forklift runs it (with the sprig functions
 * its documentation uses: see `TEMPLATE_FUNCTIONS`), against `data`, and returns the
 * output. Throws {@link NameTemplateError}: `TemplateNotValid` for a parse or execution
 * error (an unknown function or field, a bad call), `TemplateOutputEmpty` for empty output.
 */
export function isValidTemplate(template: string, data: TemplateData): string {
  const out = executeTemplate(
    parseTemplate(template, (name) => TEMPLATE_FUNCTIONS.has(name)),
    data,
  );
  if (out === '')
    throw new NameTemplateError('TemplateOutputEmpty', `template output is empty: ${template}`);
  return out;
}

/** Renders `template` and checks that the output is a DNS-1123 label (`NameNotValid` otherwise). */
export function renderLabel(template: string, data: TemplateData): string {
  const result = isValidTemplate(template, data);
  if (!isDNS1123Label(result)) {
    throw new NameTemplateError(
      'NameNotValid',
      `Template output is not a valid k8s label [${result}]`,
    );
  }
  return result;
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

/** A volume name template must render (with `PVCName`, `VolumeIndex`) to a DNS-1123 label. */
export function isValidVolumeNameTemplate(template: string): void {
  if (template !== '') renderLabel(template, { PVCName: 'test-pvc', VolumeIndex: 0 });
}

/** A network name template must render (with `NetworkName`, `NetworkNamespace`, `NetworkType`, `NetworkIndex`) to a DNS-1123 label. */
export function isValidNetworkNameTemplate(template: string): void {
  if (template === '') return;
  renderLabel(template, {
    NetworkName: 'test-network',
    NetworkNamespace: 'test-namespace',
    NetworkType: 'Multus',
    NetworkIndex: 0,
  });
}

/**
 * A PVC name template must render (with `VmName`, `TargetVmName`, `PlanName`, `DiskIndex`,
 * `RootDiskIndex`, `VmId`) to a DNS-1123 label.
 */
export function isValidPVCNameTemplate(template: string): void {
  if (template === '') return;
  renderLabel(template, {
    VmName: 'test-vm',
    TargetVmName: 'test-vm',
    PlanName: 'test-plan',
    DiskIndex: 0,
    RootDiskIndex: 0,
    VmId: 'vm-1',
  });
}
