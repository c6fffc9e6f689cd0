//! The `/stats/summary` a provider reports: a pod's figures from its containers', the node's from its pods'.

/** The stats summary of `/stats/summary` (kubelet's `statsv1alpha1.Summary`, the fields the mock fills). */
export interface StatsSummary {
  node: { nodeName: string; startTime: string; cpu: CpuStats; memory: MemoryStats };
  pods: Array<{
    podRef: { name: string; namespace: string; uid: string };
    startTime: string;
    containers: Array<{ name: string; startTime: string; cpu: CpuStats; memory: MemoryStats }>;
    cpu: CpuStats;
    memory: MemoryStats;
  }>;
}
/** A pod's figures in a {@link StatsSummary}. */
type PodStats = StatsSummary['pods'][number];
/** A container's figures in a {@link StatsSummary}. */
type ContainerStats = PodStats['containers'][number];
interface CpuStats {
  time: string;
  usageNanoCores: number;
  usageCoreNanoSeconds: number;
}
interface MemoryStats {
  time: string;
  usageBytes: number;
  workingSetBytes: number;
}

/**
 * A pod's figures at `time`: `containers` listed, its CPU and memory the sums over `counted`
 * (by default the listed containers; a pod's init containers count but are not listed).
 */
export function podStats(
  pod: { metadata?: { name?: string; namespace?: string; uid?: string } },
  startTime: string,
  time: string,
  containers: ContainerStats[],
  counted: ContainerStats[] = containers,
): PodStats {
  const sum = (f: (c: ContainerStats) => number) => counted.reduce((a, c) => a + f(c), 0);
  return {
    podRef: {
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      uid: pod.metadata?.uid ?? '',
    },
    startTime,
    containers,
    cpu: {
      time,
      usageNanoCores: sum((c) => c.cpu.usageNanoCores),
      usageCoreNanoSeconds: sum((c) => c.cpu.usageCoreNanoSeconds),
    },
    memory: {
      time,
      usageBytes: sum((c) => c.memory.usageBytes),
      workingSetBytes: sum((c) => c.memory.workingSetBytes),
    },
  };
}

/**
 * The summary of node `nodeName` at `time`: its usage the sums over `pods`, its cumulative
 * CPU time `nodeCpuNs` (which, unlike the pods' sum, keeps deleted pods' time).
 */
export function statsSummary(
  nodeName: string,
  startTime: Date,
  time: string,
  nodeCpuNs: number,
  pods: PodStats[],
): StatsSummary {
  const total = (f: (p: PodStats) => number) => pods.reduce((a, p) => a + f(p), 0);
  return {
    node: {
      nodeName,
      startTime: startTime.toISOString(),
      cpu: {
        time,
        usageNanoCores: total((p) => p.cpu.usageNanoCores),
        usageCoreNanoSeconds: nodeCpuNs,
      },
      memory: {
        time,
        usageBytes: total((p) => p.memory.usageBytes),
        workingSetBytes: total((p) => p.memory.workingSetBytes),
      },
    },
    pods,
  };
}
