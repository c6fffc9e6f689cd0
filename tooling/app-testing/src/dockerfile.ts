// Reads an app's Dockerfile without a Docker engine and lists what breaks the house rules for
// images: multi-stage, a pinned Node base, `pnpm deploy --prod` of the app alone, a numeric
// non-root user, the probe port exposed, the package's bin as entry point.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';

/** One instruction: `FROM`, `RUN`, … with its arguments, continuation lines joined. */
export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

/** One build stage: its base image, its name (`AS x`), its instructions. */
export interface DockerStage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: readonly DockerInstruction[];
}

/** Splits a Dockerfile into stages (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): DockerStage[] {
  const instructions: DockerInstruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    pending += pending === '' ? line : ` ${line}`;
    if (pending.endsWith('\\')) {
      pending = pending.slice(0, -1).trimEnd();
      continue;
    }
    const match = /^(\S+)\s*(.*)$/s.exec(pending);
    if (match) instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
    pending = '';
  }
  const stages: Array<{
    from: string;
    name: string | undefined;
    instructions: DockerInstruction[];
  }> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(/\s+/);
      stages.push({
        from: image,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** What the Dockerfile of an app must match. */
export interface DockerfileExpectations {
  /** The app's package name, e.g. `@ctrlkit/virtual-kubelet`. */
  readonly packageName: string;
  /** The pinned Node version (root package.json `devEngines.runtime.version`). */
  readonly nodeVersion: string;
  /** The file the image runs, e.g. `dist/cli.js` (the package's main bin). */
  readonly entryPoint: string;
  /** The container port named `probes` in deploy/. */
  readonly probePort: number;
}

/** Every rule the stages break, as sentences; empty when the Dockerfile is fine. */
export function dockerfileProblems(
  stages: readonly DockerStage[],
  expected: DockerfileExpectations,
): string[] {
  const problems: string[] = [];
  if (stages.length < 2)
    problems.push(`has ${stages.length} stage(s), needs a build and a runtime stage`);
  const escaped = expected.nodeVersion.replaceAll('.', '\\.');
  const pinned = new RegExp(
    `^(docker\\.io/(library/)?)?node:${escaped}-[a-z]+-slim(@sha256:[0-9a-f]{64})?$`,
  );
  for (const stage of stages) {
    if (!pinned.test(stage.from)) {
      problems.push(
        `stage ${stage.name ?? '(final)'} is FROM ${stage.from}, not node:${expected.nodeVersion}-<debian>-slim`,
      );
    }
  }
  const final = stages.at(-1);
  const build = stages.slice(0, -1);
  const runs = build.flatMap((s) =>
    s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args),
  );
  const deploy = runs.some((r) =>
    new RegExp(
      `pnpm (--filter[ =]"?${expected.packageName}"? deploy|deploy --filter[ =]"?${expected.packageName}"?)[^&]*--prod`,
    ).test(r),
  );
  if (!deploy)
    problems.push(`no build stage runs \`pnpm deploy --filter ${expected.packageName} --prod\``);
  if (final === undefined) return problems;
  const of = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword);
  for (const copy of of('COPY')) {
    if (!/^--from=\S+\s+\/out\s+\S+$/.test(copy.args)) {
      problems.push(`the final stage copies more than the deployed app: COPY ${copy.args}`);
    }
  }
  if (of('COPY').length === 0) problems.push('the final stage copies nothing from the build stage');
  if (of('RUN').length > 0)
    problems.push('the final stage runs commands (it should only copy the deployed app)');
  const user = of('USER').at(-1)?.args;
  const uid = user?.split(':')[0];
  if (uid === undefined || !/^\d+$/.test(uid) || uid === '0') {
    problems.push(
      `the final stage's USER is ${user ?? 'unset'}: it must be a numeric non-root uid (runAsNonRoot can only verify a number)`,
    );
  }
  const exposed = of('EXPOSE')
    .flatMap((e) => e.args.split(/\s+/))
    .map((p) => Number.parseInt(p, 10));
  if (!exposed.includes(expected.probePort))
    problems.push(`the probe port ${expected.probePort} is not EXPOSEd`);
  if (of('HEALTHCHECK').length > 0)
    problems.push('HEALTHCHECK is ignored by Kubernetes: health comes from the probes');
  const entry = of('ENTRYPOINT').at(-1)?.args ?? '';
  let argv: unknown;
  try {
    argv = JSON.parse(entry);
  } catch {
    argv = undefined;
  }
  if (
    !Array.isArray(argv) ||
    argv[0] !== 'node' ||
    !argv.includes(join('/app', expected.entryPoint))
  ) {
    problems.push(`ENTRYPOINT ${entry} does not run node /app/${expected.entryPoint} in exec form`);
  }
  return problems;
}

/** The `containerPort` named `probes` of the workload in `objects` (an app's deploy/). */
export function probePort(objects: readonly KubernetesObject[]): number {
  for (const o of objects) {
    const containers =
      (
        o as {
          spec?: {
            template?: {
              spec?: {
                containers?: Array<{ ports?: Array<{ name?: string; containerPort: number }> }>;
              };
            };
          };
        }
      ).spec?.template?.spec?.containers ?? [];
    for (const c of containers) {
      const port = c.ports?.find((p) => p.name === 'probes');
      if (port) return port.containerPort;
    }
  }
  throw new Error('deploy/ has no container port named probes');
}

/** Reads `<appDir>/Dockerfile` and the app's expectations, and returns the problems. */
export async function checkAppDockerfile(
  appDir: string,
  objects: readonly KubernetesObject[],
): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(appDir, 'package.json'), 'utf8')) as {
    name: string;
    bin: Record<string, string>;
  };
  const root = JSON.parse(await readFile(join(appDir, '..', '..', 'package.json'), 'utf8')) as {
    devEngines: { runtime: { version: string } };
  };
  const stages = parseDockerfile(await readFile(join(appDir, 'Dockerfile'), 'utf8'));
  return dockerfileProblems(stages, {
    packageName: pkg.name,
    nodeVersion: root.devEngines.runtime.version,
    entryPoint: Object.values(pkg.bin)[0]!.replace(/^\.\//, ''),
    probePort: probePort(objects),
  });
}
