//! Target names and name templates: rendering each kind of template as its call site does, and the checks Plan validation runs.

import type { Plan } from './api/plan.js';
import {
  networkNameTemplateData,
  pvcNameTemplateData,
  volumeNameTemplateData,
} from './name-template/data.js';
import { isDNS1123Label, isDNS1123Subdomain } from './name-template/dns1123.js';
import { executeTemplate, type TemplateData } from './name-template/execute.js';
import { TEMPLATE_FUNCTIONS } from './name-template/functions.js';
import { parseTemplate } from './name-template/parse.js';
import { NameTemplateError } from './name-template/template-error.js';

export { isDNS1123Label, isDNS1123Subdomain, NameTemplateError };

/**
 * Executes a name template as Forklift's `templateutil.ExecuteTemplate` does (Go
 * text/template with exactly Forklift's functions: see `TEMPLATE_FUNCTIONS`) against
 * `data`, and returns the output. Throws {@link NameTemplateError}: `TemplateNotValid` for
 * a parse or execution error (an unknown function or field, a bad call),
 * `TemplateOutputEmpty` for empty output.
 */
export function isValidTemplate(template: string, data: TemplateData): string {
  const out = executeTemplate(
    parseTemplate(template, (name) => TEMPLATE_FUNCTIONS.has(name)),
    data,
  );
  if (out === '')
    throw new NameTemplateError('TemplateOutputEmpty', `Template output is empty: ${template}`);
  return out;
}

/**
 * A PVC (DataVolume) name, as Forklift's `ValidatePVCNameTemplate` renders it: the output
 * with surrounding white space trimmed, not empty, and a DNS-1123 label
 * (`NameNotValid: Template output is invalid k8s label [x]` otherwise).
 */
export function renderPVCName(template: string, data: TemplateData): string {
  const out = isValidTemplate(template, data).trim();
  if (out === '')
    throw new NameTemplateError('TemplateOutputEmpty', `Template output is empty: ${template}`);
  if (!isDNS1123Label(out)) {
    throw new NameTemplateError('NameNotValid', `Template output is invalid k8s label [${out}]`);
  }
  return out;
}

/**
 * A volume or network interface name, as Forklift's `IsValidVolumeNameTemplate` and
 * `IsValidNetworkNameTemplate` check it: the output (untrimmed) not empty and a DNS-1123
 * label (`NameNotValid: Template output is not a valid k8s label [x]` otherwise).
 */
export function renderInterfaceName(template: string, data: TemplateData): string {
  const out = isValidTemplate(template, data);
  if (!isDNS1123Label(out)) {
    throw new NameTemplateError(
      'NameNotValid',
      `Template output is not a valid k8s label [${out}]`,
    );
  }
  return out;
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

/** A volume name template renders, on Forklift's sample data (`test-pvc`, index 0), to a DNS-1123 label. */
export function isValidVolumeNameTemplate(template: string): void {
  if (template !== '') renderInterfaceName(template, volumeNameTemplateData('test-pvc', 0));
}

/** A network name template renders, on Forklift's sample data (a Multus network, index 0), to a DNS-1123 label. */
export function isValidNetworkNameTemplate(template: string): void {
  if (template === '') return;
  const sample = { type: 'multus', name: 'test-network', namespace: 'test-namespace' } as const;
  renderInterfaceName(template, networkNameTemplateData(sample, 0));
}

/** A PVC name template renders, for disk 0 of a sample VM `test-vm` (`vm-1`) of plan `test-plan`, to a DNS-1123 label. */
export function isValidPVCNameTemplate(template: string): void {
  if (template === '') return;
  const plan = { metadata: { name: 'test-plan' } } as Plan;
  renderPVCName(
    template,
    pvcNameTemplateData({ plan, vm: { id: 'vm-1', name: 'test-vm' }, diskIndex: 0 }),
  );
}
