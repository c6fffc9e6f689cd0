//! The server-side apply example: a Greeting controller that applies a ConfigMap and its own status.

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
