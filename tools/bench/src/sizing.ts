/**
 * From measured per-payment costs (capacity-costs.ts) to sizes at a target rate: the arithmetic behind
 * docs/capacity.md, kept apart so its rules are read (and tested) in one place.
 *
 * Rules: a pod has one vCPU and is planned to run at most at TARGET_UTILISATION, below the chart's HPA
 * target (70%), so a replica lost or a burst still fits before the HPA acts; never fewer than MIN_REPLICAS (a PodDisruptionBudget and a
 * rolling upgrade need a second one). PostgreSQL's cores follow the same utilisation rule.
 */
export const TARGET_UTILISATION = 0.6;
export const MIN_REPLICAS = 2;

/** vCPUs a process needs at `rate` payments a second, for `cpuMsPerPayment`. */
export function coresAt(rate: number, cpuMsPerPayment: number): number {
  return (rate * cpuMsPerPayment) / 1000;
}

/** One-vCPU replicas for `cores` of work at the target utilisation, at least MIN_REPLICAS. */
export function replicasFor(cores: number): number {
  return Math.max(MIN_REPLICAS, Math.ceil(cores / TARGET_UTILISATION));
}

/** Nodes of `coresPerNode` vCPUs that hold `replicaCores`, one node spare (a node drained for upgrade). */
export function nodesFor(replicaCores: number, coresPerNode: number): number {
  return Math.ceil(replicaCores / coresPerNode) + 1;
}
