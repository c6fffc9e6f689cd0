// The main job, headless, as CI runs it: every part of the demo reports its outcome in the
// summary, and the demo leaves no process and no folder behind, also when interrupted.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'main.mjs');

/** The demo as a child process with its output collected; `exited` resolves with the code. */
function runDemo(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { child, exited, output: () => output };
}

/** The folders the demo named in its output: its own and the control plane's. */
function foldersOf(output: string): string[] {
  const work = output.match(/\(log: (\/\S+)\/virtual-kubelet\.log\)/)?.[1];
  const plane = output.match(/--kubeconfig (\/\S+)\/kubeconfig/)?.[1];
  return [work, plane].filter((f): f is string => f !== undefined);
}

/** Processes of this machine whose command line mentions one of `needles`. */
function processesMentioning(needles: string[]): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return needles.some((n) => cmdline.includes(n)) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** What the demo started for `pid`: its folders, and its pods' `sleep` processes. */
function leftovers(output: string, pid: number) {
  const folders = foldersOf(output);
  const sleep = `sleep ${86_400 + (pid % 10_000)} `;
  return {
    folders: folders.filter((f) => existsSync(f)),
    processes: processesMentioning([...folders, sleep]),
  };
}

it('runs every part to its expected outcome and leaves nothing behind', async () => {
  const demo = runDemo(['--no-tui']);
  const code = await demo.exited;
  const output = demo.output();
  expect(code, output).toBe(0);
  expect(output).toMatch(/✔ replicas +ConfigMapSet scaled 3 → 12 → 5 → 0 → 7, converged each time/);
  expect(output).toMatch(
    /✔ scheduling +kube-scheduler placed 6\/6 pods on vk-demo; 6 running as local processes/,
  );
  expect(output).toMatch(
    /✔ dra +claim one-gpu allocated vk-demo\/gpu-(\d), prepared by the kubelet plugin; its pod on vk-demo printed GPU_DEVICE_0=gpu-\1/,
  );
  expect(output).toMatch(
    /✔ migration +Plan move-all Succeeded: 5\/5 VMs migrated, 5 VirtualMachines created/,
  );
  expect(output).toMatch(
    /✔ node-lifecycle +NotReady and tainted [\d.]+ s after SIGKILL; Ready [\d.]+ s after restart; 7\/7 processes started afresh, same pods/,
  );
  expect(output).not.toContain('✘');
  expect(output).toContain('apps exited with 0, 0, 0');
  expect(foldersOf(output)).toHaveLength(2);
  expect(leftovers(output, demo.child.pid ?? 0)).toEqual({ folders: [], processes: [] });
});

it('Ctrl-C mid-run stops the apps, their pods and the cluster, and removes its folders', async () => {
  const demo = runDemo(['--no-tui']);
  try {
    // The virtual kubelet and its pods' processes are running, and the DRA driver has just
    // been started (its part has not handed it back yet).
    await waitFor('the DRA driver started', () => demo.output(), {
      timeoutMs: 300_000,
      until: (output) => output.includes('ctrlkit-dra-example-kubeletplugin --node-name'),
    });
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(130);
    const output = demo.output();
    expect(output).toContain('interrupted: stopping the apps and the cluster');
    expect(foldersOf(output)).toHaveLength(2);
    expect(leftovers(output, demo.child.pid ?? 0)).toEqual({ folders: [], processes: [] });
  } finally {
    demo.child.kill('SIGKILL');
  }
});
