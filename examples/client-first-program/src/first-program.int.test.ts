import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const program = fileURLToPath(new URL('./main.ts', import.meta.url));

/** The test run's kubeconfig with `namespace` as its context's namespace, in a file of its own. */
function kubeconfigFile(namespace: string): string {
  const exported = JSON.parse(testKubeConfig().exportConfig()) as {
    contexts: { context: { namespace?: string } }[];
  };
  for (const context of exported.contexts) context.context.namespace = namespace;
  const file = join(mkdtempSync(join(tmpdir(), 'first-program-')), 'config');
  writeFileSync(file, JSON.stringify(exported));
  return file;
}

/** Runs the program as a user does (`node src/main.ts`, KUBECONFIG set); its output as it comes. */
function runProgram(kubeconfig: string) {
  const child = spawn(process.execPath, [program], {
    env: { ...process.env, KUBECONFIG: kubeconfig, HOME: tmpdir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { output, exited };
}

const pod = (name: string): V1Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.10' }] },
});

it('lists the pods of the kubeconfig namespace, prints what the watch sees, patches the first', async () => {
  const namespace = await createTestNamespace(testKubeConfig(), 'first-program-');
  const client = createClient(testKubeConfig());
  try {
    for (const name of ['pod-a', 'pod-b']) await client.create('pods', pod(name), { namespace });
    const { output, exited } = runProgram(kubeconfigFile(namespace));
    await waitFor('the list printed', () => output.stdout.includes('pod-b Pending'), {
      timeoutMs: 30_000,
    });
    await client.create('pods', pod('pod-c'), { namespace });
    await waitFor('the watch event printed', () => output.stdout.includes('ADDED pod-c'), {
      timeoutMs: 30_000,
    });
    expect(await exited, output.stderr).toBe(0);
    expect(output.stdout.split('\n')).toEqual([
      'pod-a Pending',
      'pod-b Pending',
      'ADDED pod-c',
      "{ seen: 'true' }",
      '',
    ]);
    const patched = await client.get<V1Pod>('pods', 'pod-a', { namespace });
    expect(patched.metadata?.labels).toEqual({ seen: 'true' });
  } finally {
    client.close();
  }
});

it('fails naming the kubeconfig file when KUBECONFIG names one that is not there', async () => {
  const missing = join(tmpdir(), 'first-program-missing', 'config');
  const { output, exited } = runProgram(missing);
  expect(await exited).not.toBe(0);
  expect(output.stderr).toContain(missing);
  expect(output.stdout).toBe('');
});
