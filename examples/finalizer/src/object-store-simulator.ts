//! A simulator of the external system the controller drives: an object store with buckets.

/** An in-memory object store (a stand-in for a cloud API), counting calls. */
export class ObjectStoreSimulator {
  readonly buckets = new Map<string, { region: string }>();
  creates = 0;
  deletes = 0;
  /** When set, every call fails with this error (an outage). */
  outage: Error | undefined;

  /** Creates or updates the bucket; idempotent. */
  async ensureBucket(name: string, region: string): Promise<void> {
    if (this.outage) throw this.outage;
    if (!this.buckets.has(name)) this.creates++;
    this.buckets.set(name, { region });
  }

  /** Deletes the bucket; idempotent (a missing bucket is fine). */
  async deleteBucket(name: string): Promise<void> {
    if (this.outage) throw this.outage;
    if (this.buckets.delete(name)) this.deletes++;
  }
}
