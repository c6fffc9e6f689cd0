//! What a controller counts: its successful ResourceSlice writes.

/** Counts of successful API calls. */
export interface Stats {
  /** ResourceSlices created. */
  numCreates: number;
  /** ResourceSlices updated. */
  numUpdates: number;
  /** ResourceSlices deleted (a delete answered 404 is not counted). */
  numDeletes: number;
}
