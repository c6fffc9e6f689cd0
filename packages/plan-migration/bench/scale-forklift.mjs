// The scale bench's model of Forklift's Plan status (issue 36 item 5): the JSON bytes that
// Forklift's Go types (api/v1beta1/plan/{vm,migration,timed}.go, lib/condition, with their
// `omitempty` tags) give the same settled VM, built from our VM status by the differences
// between the two types, so that both count the same names, timestamps and disks.

/** Bytes of `x` as JSON (0 for undefined). */
export const jsonBytes = (x) => (x === undefined ? 0 : Buffer.byteLength(JSON.stringify(x)));

/**
 * Forklift's status of a settled cold VM with the same pipeline as ours: `luks` is a struct
 * (`core.ObjectReference`, tag `json:"luks"`), which `omitempty` never drops, so every VM
 * carries `"luks":{}`; its builders give disk tasks no description.
 */
export function forkliftVM(vm) {
  const out = structuredClone(vm);
  out.luks = {};
  for (const step of out.pipeline)
    for (const task of step.tasks ?? [])
      if (task.description !== undefined) delete task.description;
  return out;
}

/**
 * The same VM as Forklift migrates it from vSphere (cold, guest conversion by virt-v2v after a
 * CDI copy): the `ImageConversion` step before `VirtualMachineCreation` (as its pipeline builds
 * it, completed with the VM creation's times), and `disksCopied: true`, which it sets once the
 * disks are copied when copy and conversion are separate.
 */
export function forkliftVSphereVM(vm) {
  const out = forkliftVM(vm);
  const creation = out.pipeline.findIndex((s) => s.name === 'VirtualMachineCreation');
  const at = out.pipeline[creation];
  out.pipeline.splice(creation, 0, {
    name: 'ImageConversion',
    description: 'Convert image to kubevirt.',
    progress: { completed: 1, total: 1 },
    phase: 'Completed',
    started: at?.started,
    completed: at?.started,
  });
  out.disksCopied = true;
  return out;
}
