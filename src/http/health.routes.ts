import { Type } from 'typebox';
import type { Db } from '../db/index.js';
import { loadMigrations, type Migration, migrationStatus } from '../db/index.js';
import { errors } from '../errors.js';
import type { App } from './app-instance.js';
import { errorResponses } from './schemas.js';

const Healthy = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({
  status: Type.Literal('ready'),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  migrations: Type.Integer({ description: 'Number of migrations applied' }),
});

export function registerHealthRoutes(app: App, deps: { db: Db; migrations?: Migration[] }): void {
  const migrations = deps.migrations ?? loadMigrations();

  app.get(
    '/healthz',
    { schema: { tags: ['system'], summary: 'The process is up', response: { 200: Healthy } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: 'The database is reachable and every migration is applied',
        response: { 200: Ready, ...errorResponses(503) },
      },
    },
    async () => {
      let status: Awaited<ReturnType<typeof migrationStatus>>;
      try {
        status = await migrationStatus(deps.db, migrations);
      } catch (err) {
        throw errors.unavailable('The database is not reachable.', 5, err);
      }
      if (status.pending.length > 0) {
        throw errors.unavailable(`${status.pending.length} database migration(s) are not applied yet.`);
      }
      return { status: 'ready' as const, database: deps.db.engine, migrations: status.applied.length };
    },
  );
}
