//! Test helpers of @ctrlkit/node-controller: a fake clientset.

export {
  apiError,
  type FakeAction,
  FakeKube,
  type FakeReactor,
  type FakeResource,
  type FakeVerb,
} from './testing/fake-kube.js';
