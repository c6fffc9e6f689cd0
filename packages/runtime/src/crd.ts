/**
 * `@ctrlkit/runtime/crd`: CustomResourceDefinitions from TypeBox schemas, so a custom
 * resource's TypeScript type and its CRD's OpenAPI schema are one source.
 *
 * - {@link customResourceDefinition} builds the CRD ({@link CustomResourceDefinitionOptions}:
 *   group, names, scope, versions with their schema, subresources and printer columns);
 *   {@link CustomResource} is the object's type.
 * - {@link structuralSchema}: a TypeBox schema as the structural schema the apiserver
 *   requires.
 * - Manifests: {@link renderManifests} (YAML), {@link writeManifests} (the generate
 *   script), {@link checkManifests} (a test: throws {@link ManifestsOutdatedError}, naming
 *   the command to run, when the committed file is stale).
 *
 * A first program:
 * ```ts
 * import { type CustomResource, customResourceDefinition, writeManifests } from '@ctrlkit/runtime/crd';
 * import { Type } from 'typebox';
 *
 * const schema = Type.Object({ spec: Type.Object({ replicas: Type.Integer({ minimum: 0 }) }) });
 * type Widget = CustomResource<typeof schema>;
 * const widgetCrd = customResourceDefinition({
 *   group: 'examples.ctrlkit.dev',
 *   names: { kind: 'Widget', plural: 'widgets' },
 *   versions: [{ name: 'v1', schema, subresources: { status: {} } }],
 * });
 * await writeManifests('crds/widgets.yaml', [widgetCrd], { regenerateCommand: 'pnpm generate:crds' });
 * ```
 *
 * @packageDocumentation
 */

export {
  type CustomResource,
  type CustomResourceDefinitionOptions,
  type CustomResourceNames,
  type CustomResourceScope,
  type CustomResourceSubresources,
  type CustomResourceVersion,
  customResourceDefinition,
  DEFAULT_CUSTOM_RESOURCE_SCOPE,
  type PrinterColumn,
} from './crd/custom-resource-definition.js';
export {
  checkManifests,
  type RenderManifestsOptions,
  renderManifests,
  writeManifests,
} from './crd/manifests.js';
export {
  ManifestsOutdatedError,
  type ManifestsOutdatedErrorReason,
} from './crd/manifests-outdated-error.js';
export { type StructuralSchema, structuralSchema } from './crd/structural-schema.js';
