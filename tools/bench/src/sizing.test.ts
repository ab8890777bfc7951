import { expect, it } from '@jest/globals';
import { coresAt, MIN_REPLICAS, nodesFor, replicasFor } from './sizing.ts';

it('turns CPU per payment into cores at a rate', () => {
  expect(coresAt(1_000, 12.5)).toBe(12.5);
  expect(coresAt(100, 0)).toBe(0);
});

it('sizes one-vCPU replicas at 60% CPU, never fewer than two', () => {
  expect(replicasFor(0)).toBe(MIN_REPLICAS);
  expect(replicasFor(1.2)).toBe(2);
  expect(replicasFor(1.21)).toBe(3);
  expect(replicasFor(6)).toBe(10);
});

it('adds one spare node to the nodes the replicas fill', () => {
  expect(nodesFor(16, 16)).toBe(2);
  expect(nodesFor(17, 16)).toBe(3);
});
