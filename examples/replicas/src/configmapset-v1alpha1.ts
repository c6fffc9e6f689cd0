//! ConfigMapSet v1alpha1, the older shape (`spec.count`), and its conversion to and from v1 (the hub).
//! What v1alpha1 cannot hold (`spec.data`) rides in an annotation, so round trips lose nothing.

import {
  type ConvertibleObject,
  type SpokeConverter,
  setConversionData,
  takeConversionData,
} from '@ctrlkit/runtime/webhook';
import { Type } from 'typebox';

/** The older served version. */
export const v1alpha1 = 'v1alpha1';

/**
 * The annotation that keeps, on a v1alpha1 object, the v1 fields it has no place for (JSON),
 * as kubebuilder projects keep their conversion data.
 */
export const conversionDataAnnotation = 'examples.ctrlkit.dev/conversion-data';

/** The schema of a ConfigMapSet in v1alpha1: `spec.count`, no `spec.data`. */
export const configMapSetV1alpha1Schema = Type.Object({
  spec: Type.Object({
    count: Type.Integer({
      minimum: 0,
      maximum: 250,
      description: 'How many ConfigMaps to keep (spec.replicas in v1).',
    }),
  }),
});

/** What v1 holds and v1alpha1 cannot: kept in {@link conversionDataAnnotation}. */
interface ConversionData {
  data?: Record<string, string>;
}

/** Converts v1alpha1 to v1 (`toHub`) and back (`fromHub`); both change the copy they are given. */
export const v1alpha1Converter: SpokeConverter = {
  toHub(spoke: ConvertibleObject): ConvertibleObject {
    const kept = takeConversionData(spoke, conversionDataAnnotation) as ConversionData | undefined;
    if (!hasSpec(spoke)) return spoke;
    const { count, ...rest } = spoke.spec;
    return {
      ...spoke,
      spec: {
        ...rest,
        ...(count !== undefined && { replicas: count }),
        ...(kept?.data !== undefined && { data: kept.data }),
      },
    };
  },
  fromHub(hub: ConvertibleObject): ConvertibleObject {
    if (!hasSpec(hub)) return hub;
    const { replicas, data, ...rest } = hub.spec;
    if (data !== undefined) setConversionData(hub, conversionDataAnnotation, { data });
    return { ...hub, spec: { ...rest, ...(replicas !== undefined && { count: replicas }) } };
  },
};

/** Whether the object has a spec to convert (a request for metadata only may carry none). */
function hasSpec(object: ConvertibleObject): object is ConvertibleObject & {
  spec: Record<string, unknown>;
} {
  return typeof object.spec === 'object' && object.spec !== null && !Array.isArray(object.spec);
}
