import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { memoryKv } from '../kv/index.js';
import { createLogger } from '../main.js';
import type { CatalogSource, PlatformSource } from '../platform/index.js';
import { createServices, type Services } from '../services.js';
import { backgroundWork } from './catalog.js';

const JOBS = [
  'collect-market',
  'forecast-games',
  'evaluate-alerts',
  'deliver-alerts',
  'measure-update-impact',
  'collect-ugc-catalog',
  'refresh-keywords',
  'detect-clones',
  'purge-expired-refresh-tokens',
  'refresh-sdk-rollups',
  'sdk-retention',
];

describe('the catalogue of background work', () => {
  const built: Services[] = [];
  afterEach(async () => {
    for (const s of built.splice(0)) await s.close();
  });

  // Building services opens nothing and queries nothing: a stand-in database and platform do.
  function services(env: Record<string, string>): Services {
    const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
    const s = createServices({
      config,
      db: {} as Db,
      kv: memoryKv(),
      clock: fixedClock('2026-11-24T00:00:00Z'),
      platform: { replaysPast: true } as PlatformSource,
      catalog: { replaysPast: true } as CatalogSource,
      log: createLogger(config),
      jwtSecret: 'catalog-test-secret-0123456789abcdef',
    });
    built.push(s);
    return s;
  }
  const names = (work: { jobs: { name: string }[]; workers: { name: string }[] }) => ({
    jobs: work.jobs.map((j) => j.name),
    workers: work.workers.map((w) => w.name),
  });

  it('runs every job and the ingest writer in an embedded `svc serve`, and the writer alone with DATABASE_URL', () => {
    expect(names(backgroundWork(services({}), 'serve'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
    const shared = services({ DATABASE_URL: 'postgres://127.0.0.1:1/x' });
    expect(names(backgroundWork(shared, 'serve'))).toEqual({ jobs: [], workers: ['ingest-writer'] });
  });

  it('runs every job and the ingest writer in `svc worker`: the outbox table and JetStream are shared', () => {
    expect(names(backgroundWork(services({}), 'worker'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
    const shared = services({ DATABASE_URL: 'postgres://127.0.0.1:1/x' });
    expect(names(backgroundWork(shared, 'worker'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
    const nats = services({ NATS_URL: 'nats://127.0.0.1:1' });
    expect(names(backgroundWork(nats, 'worker'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
  });

  it('leaves the ingest writer to workers in `svc serve` with JetStream on PostgreSQL (serve only publishes)', () => {
    const scaled = services({ NATS_URL: 'nats://127.0.0.1:1', DATABASE_URL: 'postgres://127.0.0.1:1/x' });
    expect(names(backgroundWork(scaled, 'serve'))).toEqual({ jobs: [], workers: ['ingest-publisher'] });
    expect(names(backgroundWork(scaled, 'worker'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
    // Embedded with NATS: no worker process to leave it to.
    const embedded = services({ NATS_URL: 'nats://127.0.0.1:1' });
    expect(names(backgroundWork(embedded, 'serve'))).toEqual({ jobs: JOBS, workers: ['ingest-writer'] });
  });

  it('schedules each job at its documented interval', () => {
    const s = services({ COLLECT_INTERVAL_SEC: '120', ALERT_INTERVAL_SEC: '600' });
    const intervals = Object.fromEntries(backgroundWork(s, 'worker').jobs.map((j) => [j.name, j.intervalMs]));
    expect(intervals).toEqual({
      'collect-market': 120_000,
      'forecast-games': 300_000,
      'evaluate-alerts': 600_000,
      'deliver-alerts': 60_000,
      'measure-update-impact': 900_000,
      'collect-ugc-catalog': 900_000,
      'refresh-keywords': 3_600_000,
      'detect-clones': 900_000,
      'purge-expired-refresh-tokens': 86_400_000,
      'refresh-sdk-rollups': 10_000,
      'sdk-retention': 86_400_000,
    });
  });
});
