import type { TimelineKind } from '../domain/timeline.ts';
import type { SettlementPrisma } from './prisma.ts';

/** A timeline line as recorded, with its recording order. */
export interface RecordedTimelineEntry {
  readonly seq: bigint;
  readonly kind: TimelineKind;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly at: Date;
}

/** Reads of the append-only timeline (entries are written by the SettlementUnit with what they describe). */
export class TimelineStore {
  private readonly prisma: SettlementPrisma;

  constructor(prisma: SettlementPrisma) {
    this.prisma = prisma;
  }

  /** The payment's entries in recording order. */
  async list(paymentId: string): Promise<RecordedTimelineEntry[]> {
    const rows = await this.prisma.timelineEntry.findMany({ where: { paymentId }, orderBy: { seq: 'asc' } });
    return rows.map((r) => ({ seq: r.seq, kind: r.kind as TimelineKind, detail: r.detail as Record<string, unknown>, at: r.at }));
  }
}
