//! The event reasons of env resolution, as virtual-kubelet's podutils emits them.

/** Event reason `OptionalConfigMapNotFound`. */
export const ReasonOptionalConfigMapNotFound = 'OptionalConfigMapNotFound';
/** Event reason `OptionalConfigMapKeyNotFound`. */
export const ReasonOptionalConfigMapKeyNotFound = 'OptionalConfigMapKeyNotFound';
/** Event reason `FailedToReadOptionalConfigMap`. */
export const ReasonFailedToReadOptionalConfigMap = 'FailedToReadOptionalConfigMap';
/** Event reason `OptionalSecretNotFound`. */
export const ReasonOptionalSecretNotFound = 'OptionalSecretNotFound';
/** Event reason `OptionalSecretKeyNotFound`. */
export const ReasonOptionalSecretKeyNotFound = 'OptionalSecretKeyNotFound';
/** Event reason `FailedToReadOptionalSecret`. */
export const ReasonFailedToReadOptionalSecret = 'FailedToReadOptionalSecret';
/** Event reason `MandatoryConfigMapNotFound`. */
export const ReasonMandatoryConfigMapNotFound = 'MandatoryConfigMapNotFound';
/** Event reason `MandatoryConfigMapKeyNotFound`. */
export const ReasonMandatoryConfigMapKeyNotFound = 'MandatoryConfigMapKeyNotFound';
/** Event reason `FailedToReadMandatoryConfigMap`. */
export const ReasonFailedToReadMandatoryConfigMap = 'FailedToReadMandatoryConfigMap';
/** Event reason `MandatorySecretNotFound`. */
export const ReasonMandatorySecretNotFound = 'MandatorySecretNotFound';
/** Event reason `MandatorySecretKeyNotFound`. */
export const ReasonMandatorySecretKeyNotFound = 'MandatorySecretKeyNotFound';
/** Event reason `FailedToReadMandatorySecret`. */
export const ReasonFailedToReadMandatorySecret = 'FailedToReadMandatorySecret';
/** Event reason `InvalidEnvironmentVariableNames`. */
export const ReasonInvalidEnvironmentVariableNames = 'InvalidEnvironmentVariableNames';
