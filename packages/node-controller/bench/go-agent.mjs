// Go virtual-kubelet's node package v1.13.0 as a bench agent (tooling/go-bench/virtual-kubelet):
// built once by the set-up (`pnpm setup:go`) into ~/.cache/ctrlkit/go-programs, never into the
// repository, and never by a bench.
import { goProgram } from '@ctrlkit/go-programs';

/** The Go agent's path, or undefined (with the reason, naming the set-up command, pushed onto `notes`). */
export function buildGo(notes) {
  try {
    return goProgram('bench-virtual-kubelet');
  } catch (error) {
    notes.push(`Go column skipped: ${error.message}.`);
    return undefined;
  }
}
