import type { Logger } from 'pino';

/** A started part's stop: drains its work and releases what it holds. */
export type StopPart = () => Promise<void> | void;

/**
 * The parts a service started, in order, each with its stop. `stop()` stops them in reverse order —
 * the part started last (the gRPC server, so callers see NOT_SERVING first) stops first, the database
 * last — once, whoever asks; a part that fails to stop is logged and the others still stop.
 */
export class ServiceLife {
  private readonly parts: { readonly name: string; readonly stop: StopPart }[] = [];
  private stopping: Promise<void> | undefined;
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  /** Registers a started part's stop; returns the part, so a start reads as one line. */
  own<T>(name: string, part: T, stop: (part: T) => Promise<void> | void): T {
    if (this.stopping) throw new Error(`${name} started after the service began stopping`);
    this.parts.push({ name, stop: () => stop(part) });
    return part;
  }

  /** The names of the parts started so far, in start order (what the logs and tests read). */
  get started(): readonly string[] {
    return this.parts.map((part) => part.name);
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const part of [...this.parts].reverse()) {
      try {
        await part.stop();
      } catch (error) {
        this.logger.error({ err: error, part: part.name }, 'a part failed to stop; stopping the others');
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} part(s) failed to stop`);
  }
}
