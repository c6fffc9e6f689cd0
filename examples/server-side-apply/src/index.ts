/**
 * The server-side apply example: a Greeting controller that applies a ConfigMap it owns and
 * its own status, with `@ctrlkit/runtime`'s `apply` and `applyStatus`.
 *
 * @packageDocumentation
 */

export {
  fieldManager,
  type GreetingControllerOptions,
  startGreetingController,
} from './greeting-controller.js';
export {
  type Greeting,
  greetingCrd,
  greetingSchema,
  group,
  plural,
  version,
} from './greeting-crd.js';
