/**
 * The ingest domain's service: POST /api/sdk/events runs the pipeline (pipeline.ts) in the mode
 * set here, and the recent-events view reads the team's newest events.
 */
import * as repo from './ingest.repo.js';
import {
  type IngestMode,
  type IngestRequest,
  type IngestResult,
  type PipelineDeps,
  runIngest,
} from './pipeline.js';

export type { IngestCounts, IngestKey, IngestMode } from './pipeline.js';

export class IngestService {
  /** 'async' queues accepted events for the writer; 'sync' writes them in the request. */
  mode: IngestMode = 'async';

  constructor(private readonly deps: PipelineDeps) {}

  /** One request through every step; the result says what to answer. */
  ingest(request: IngestRequest): Promise<IngestResult> {
    return runIngest(this.deps, this.mode, request);
  }

  recent(teamId: number, limit: number): Promise<repo.RecentEventRow[]> {
    return repo.recentEvents(this.deps.db, teamId, limit);
  }
}
