// The chart tests every app runs (its src/chart.int.test.ts calls describeChart once):
// `helm lint --strict`; with the default values and the release "ctrlkit", `helm template`
// renders exactly deploy/ (but the Namespace, which `helm install --create-namespace` makes);
// with other values the apiserver accepts the result (server-side dry run); two releases in two
// namespaces, dry-run together, own no object in common (cluster-scoped or in a shared
// namespace), so the chart installs twice in one cluster. Helm is the pinned build from the Go
// module proxy (tooling/bootstrap); without it the tests are skipped, except in CI, where they
// fail.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dryRunManifests } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { dumpYaml, type KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { readManifests } from './deploy-rbac.js';
import {
  findHelm,
  helmTemplate,
  requireHelm,
  runHelm,
  sharedObjects,
  sortObjects,
  type TemplateOptions,
} from './helm.js';

/** The release whose render deploy/ is. */
export const DEPLOY_RELEASE = 'ctrlkit';

/** `--set` values for `helm template`. */
export type ChartValues = NonNullable<TemplateOptions['set']>;

/** What {@link describeChart} tests. */
export interface ChartTestOptions {
  /** The app's folder, holding `chart/` and `deploy/`. */
  readonly appDirectory: string;
  /** deploy/'s namespace: the release namespace of the render compared with deploy/. */
  readonly deployNamespace: string;
  /** Whether deploy/ holds the chart's `crds/` too (rendered with `--include-crds`). */
  readonly deployHasCrds: boolean;
  /** Values other than the defaults, for the render that is dry-run. */
  readonly values: ChartValues;
  /**
   * Values of the second release in the install-twice test: what a second release of the app
   * in one cluster must set (e.g. not creating a cluster-scoped object that belongs to the
   * driver, not to a release). Default: none.
   */
  readonly secondReleaseValues?: ChartValues;
  /**
   * Checks of that render (the values reached the objects); `render(values)` renders the
   * chart again with other values (e.g. to expect a `fail`).
   */
  readonly checkRendered: (
    rendered: KubernetesObject[],
    render: (values: ChartValues) => Promise<KubernetesObject[]>,
  ) => Promise<void> | void;
}

/** Registers the chart tests of one app (see the top of this file); await it at the top level. */
export async function describeChart(options: ChartTestOptions): Promise<void> {
  const chart = join(options.appDirectory, 'chart');
  const render = async (release: string, namespace: string, set: ChartValues = {}) =>
    helmTemplate(await requireHelm(), chart, { release, namespace, set });
  const noHelm = (await findHelm()) === undefined && !process.env.CI;
  if (noHelm) console.warn('helm not found: the chart tests are skipped (CI builds it)');

  describe.skipIf(noHelm)('the Helm chart', () => {
    it('passes helm lint --strict', async () => {
      const out = await runHelm(await requireHelm(), ['lint', '--strict', chart]);
      expect(out).toContain('0 chart(s) failed');
    });

    it(`renders deploy/ with the default values and the release "${DEPLOY_RELEASE}"`, async () => {
      const rendered = await helmTemplate(await requireHelm(), chart, {
        release: DEPLOY_RELEASE,
        namespace: options.deployNamespace,
        includeCrds: options.deployHasCrds,
      });
      const deploy = (await readManifests(join(options.appDirectory, 'deploy'))).filter(
        (o) => o.kind !== 'Namespace',
      );
      expect(sortObjects(rendered)).toEqual(sortObjects(deploy));
    });

    it('renders the values and the apiserver accepts the result (server-side dry run)', async () => {
      const namespace = randomNamespace();
      const rendered = await render(DEPLOY_RELEASE, namespace, options.values);
      await options.checkRendered(rendered, (values) => render(DEPLOY_RELEASE, namespace, values));
      const results = await dryRun([namespace], rendered);
      expect(results).toHaveLength(rendered.length);
      for (const created of results) expect(created.metadata?.uid).toBeDefined();
    });

    it('installs twice: two releases own no object in common (cluster-scoped or shared namespace)', async () => {
      const namespaces = [randomNamespace(), randomNamespace()];
      const first = await render('first', namespaces[0] as string);
      const second = await render('second', namespaces[1] as string, options.secondReleaseValues);
      const results = await dryRun(namespaces, [...first, ...second]);
      expect(results).toHaveLength(first.length + second.length);
      const outside = results.filter((o) => !namespaces.includes(o.metadata?.namespace ?? ''));
      // The check sees something: every chart has a ClusterRole.
      expect(outside.map((o) => o.kind)).toContain('ClusterRole');
      expect(sharedObjects(results.slice(0, first.length), results.slice(first.length))).toEqual(
        [],
      );
    });
  });
}

function randomNamespace(): string {
  return `chart-${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates `namespaces` and dry-runs `objects` in one call of `dryRunManifests`; the apiserver's answers. */
async function dryRun(
  namespaces: readonly string[],
  objects: readonly KubernetesObject[],
): Promise<KubernetesObject[]> {
  const dir = await mkdtemp(join(tmpdir(), 'chart-'));
  try {
    const namespaceObjects = namespaces.map(
      (name): KubernetesObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    );
    await writeFile(
      join(dir, '0-namespaces.yaml'),
      namespaceObjects.map((o) => dumpYaml(o)).join('---\n'),
    );
    await writeFile(join(dir, '1-chart.yaml'), objects.map((o) => dumpYaml(o)).join('---\n'));
    return (await dryRunManifests(testKubeConfig(), dir)).results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
