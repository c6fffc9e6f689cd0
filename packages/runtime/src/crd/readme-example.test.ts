// The "CRDs from TypeBox schemas" example of README.md, with the manifest in a temporary folder.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'typebox';
import { expect, it } from 'vitest';
import {
  type CustomResource,
  checkManifests,
  customResourceDefinition,
  writeManifests,
} from '../crd.js';

// The CRD helpers load client-node's index on first use (its serializer): seconds on a busy machine.
it('runs the CRD README example', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'readme-crd-'));
  const file = join(dir, 'crds/widgets.yaml');

  const schema = Type.Object({
    spec: Type.Object({
      replicas: Type.Integer({ minimum: 0, description: 'How many to keep.' }),
      mode: Type.Union([Type.Literal('Fast'), Type.Literal('Safe')]),
      port: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
    }),
    status: Type.Optional(Type.Object({ readyReplicas: Type.Integer() })),
  });
  type Widget = CustomResource<typeof schema>;

  const widgetCrd = customResourceDefinition({
    group: 'examples.ctrlkit.dev',
    names: { kind: 'Widget', plural: 'widgets', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        schema,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        ],
      },
    ],
  });

  const regenerateCommand = 'pnpm generate:crds';
  await writeManifests(file, [widgetCrd], { regenerateCommand });
  await checkManifests(file, [widgetCrd], { regenerateCommand });

  const widget: Widget = {
    apiVersion: 'examples.ctrlkit.dev/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec: { replicas: 2, mode: 'Safe' },
  };
  expect(widget.spec.mode).toBe('Safe');
  const yaml = await readFile(file, 'utf8');
  expect(yaml).toContain('name: widgets.examples.ctrlkit.dev');
  expect(yaml).toContain(
    '                  enum:\n                    - Fast\n                    - Safe\n',
  );
  expect(yaml).toContain('x-kubernetes-int-or-string: true');
});
