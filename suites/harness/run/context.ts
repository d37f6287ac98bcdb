// The run context of one worker: the state every request of the run shares — whether traffic was
// stopped and why, how many requests in a row went without a response, the inspectors every
// response passes. One object, created once per worker and handed to each client
// (transport/client.ts), rather than variables of the modules that read it; the fault sweep and
// the harness tests reset it between runs.
import type { Exchange } from '../../../contract/check.js';

/** Why this worker stopped sending check traffic. */
export interface TrafficStop {
  cause: 'interrupted' | 'deadline' | 'target-unresponsive';
  message: string;
}

/** A request refused because traffic was stopped; the check it belongs to could not run. */
export class RunStopped extends Error {
  constructor(readonly stop: TrafficStop) {
    super(`the run stopped: ${stop.message}`);
    this.name = 'RunStopped';
  }
}

/** Looks at a response as exchanged; a returned string fails the running check. */
export type ResponseInspector = (exchange: Exchange) => string | undefined;

export class RunContext {
  /** Set once traffic is stopped (the first reason wins). */
  stopped: TrafficStop | undefined;
  /** Aborts requests in flight when traffic stops. */
  private controller = new AbortController();
  /** Requests in a row that got no response (CONFORMANCE_STOP_AFTER_NO_RESPONSE). */
  noResponseInARow = 0;
  private readonly stopListeners: ((s: TrafficStop) => void)[] = [];
  readonly inspectors: ResponseInspector[] = [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops check traffic for the rest of the run (the first reason wins). */
  stop(stop: TrafficStop): void {
    if (this.stopped) return;
    this.stopped = stop;
    this.controller.abort(new RunStopped(stop));
    for (const fn of this.stopListeners) fn(stop);
  }

  onStop(fn: (s: TrafficStop) => void): void {
    this.stopListeners.push(fn);
  }

  /** Traffic flows again (a new run in the same worker: the fault sweep, the harness tests). */
  reset(): void {
    this.stopped = undefined;
    this.controller = new AbortController();
    this.noResponseInARow = 0;
  }
}

const worker = new RunContext();

/** The run context of this worker. */
export const workerRun = (): RunContext => worker;

/** Stops check traffic of this worker for the rest of the run. */
export const stopTraffic = (stop: TrafficStop): void => worker.stop(stop);
export const trafficStop = (): TrafficStop | undefined => worker.stopped;
export const onTrafficStop = (fn: (s: TrafficStop) => void): void => worker.onStop(fn);
/** For the fault sweep and harness unit tests: traffic flows again. */
export const resetTrafficForTests = (): void => worker.reset();
/** Every response of every client of this worker passes through fn; a returned string fails the running check. */
export const addResponseInspector = (fn: ResponseInspector): void => void worker.inspectors.push(fn);
