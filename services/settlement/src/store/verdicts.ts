import type { Arrival, ArrivalEvidence } from '../domain/settlement-checks.ts';
import { VERDICT_KINDS, type Verdict, type VerdictKind } from '../domain/verdict.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { SettlementPrisma } from './prisma.ts';
import type { Scope } from '../domain/settlement-lock.ts';
import { verdictTimelineEntry } from '../domain/timeline.ts';
import { verdictReachedEvent } from '../adapters/verdict-events.ts';
import { inSettlementUnit, type ArrivalSource } from './settlement-unit.ts';

type Row = Prisma.VerdictGetPayload<object>;

export function toVerdict(row: Row): Verdict {
  if (!(VERDICT_KINDS as readonly string[]).includes(row.kind)) throw new Error(`verdicts row ${row.id} holds an unknown kind`);
  const kind = row.kind as VerdictKind;
  return {
    id: row.id,
    paymentId: row.paymentId,
    kind,
    holdReason: row.holdReason,
    holdAcceptable: row.holdAcceptable,
    settlement:
      kind === 'failed'
        ? null
        : {
            coin: row.coin,
            valueCoin: row.valueCoin?.toFixed(6) ?? null,
            merchantReceived: row.merchantReceived?.toFixed(6) ?? null,
            txidIn: row.txidIn,
            txidOut: row.txidOut,
            payoutWallet: row.payoutWallet,
          },
    decidedAt: row.decidedAt,
  };
}

export function verdictData(verdict: Verdict, simulationOf: string | null): Prisma.VerdictCreateManyInput {
  const s = verdict.settlement;
  return {
    id: verdict.id,
    paymentId: verdict.paymentId,
    kind: verdict.kind,
    holdReason: verdict.holdReason,
    holdAcceptable: verdict.holdAcceptable,
    coin: s?.coin ?? null,
    valueCoin: s?.valueCoin ?? null,
    merchantReceived: s?.merchantReceived ?? null,
    txidIn: s?.txidIn ?? null,
    txidOut: s?.txidOut ?? null,
    payoutWallet: s?.payoutWallet ?? null,
    decidedAt: verdict.decidedAt,
    simulationOf,
  };
}

export interface SettlementEntry {
  readonly scope: Scope;
  readonly paymentId: string;
  /** What arrived, or null for a decline. */
  readonly arrival: (Arrival & { readonly receivedAt: Date; readonly source: ArrivalSource }) | null;
  /** The payment id when a simulation reaches this verdict: at most one such verdict per payment. */
  readonly simulationOf: string | null;
}

/** Thrown inside the transaction to roll it back when another call recorded the simulation first. */
class SimulationAlreadyRecorded extends Error {
  override name = 'SimulationAlreadyRecorded';
}

/** The only code that knows the arrivals and verdicts tables (with SettlementUnit). */
export class VerdictStore {
  private readonly prisma: SettlementPrisma;

  constructor(prisma: SettlementPrisma) {
    this.prisma = prisma;
  }

  async findSimulation(paymentId: string): Promise<Verdict | null> {
    const row = await this.prisma.verdict.findUnique({ where: { simulationOf: paymentId } });
    return row ? toVerdict(row) : null;
  }

  /**
   * Records an arrival, the verdict on it and its VerdictReached event (outbox) in one transaction.
   * `decide` runs inside it, once the database has said whether the arrival's transaction was used
   * before (the primary key on arrivals.txid_in decides that, also between concurrent calls).
   *
   * For a simulation, the unique simulation_of key lets only one verdict per payment in: a concurrent
   * loser blocks on the winner's insert, inserts nothing, rolls back (its arrival too) and returns the
   * winner's verdict. `recorded` says which of the two happened.
   */
  async record(entry: SettlementEntry, decide: (evidence: ArrivalEvidence) => Verdict): Promise<{ verdict: Verdict; recorded: boolean }> {
    try {
      const verdict = await inSettlementUnit(this.prisma, async (unit) => {
        const txidUsedBefore = entry.arrival ? !(await unit.insertArrival({ ...entry.arrival, paymentId: entry.paymentId })) : false;
        const decided = decide({ txidUsedBefore });
        if (!(await unit.insertVerdict(decided, entry.simulationOf, verdictReachedEvent(entry.scope, decided))))
          throw new SimulationAlreadyRecorded();
        await unit.appendTimeline(verdictTimelineEntry(decided));
        return decided;
      });
      return { verdict, recorded: true };
    } catch (error) {
      if (!(error instanceof SimulationAlreadyRecorded) || entry.simulationOf === null) throw error;
      const winner = await this.findSimulation(entry.simulationOf);
      if (!winner) throw new Error(`simulation of ${entry.simulationOf} conflicted but no verdict is recorded`, { cause: error });
      return { verdict: winner, recorded: false };
    }
  }
}
