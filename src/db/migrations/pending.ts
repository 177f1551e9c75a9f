/**
 * web, worker and scheduler read the changelog once at start: today's code reads documents in the shape the
 * migrations leave, so in production a process refuses to start while one is pending (exit 78, as for a bad
 * configuration: a supervisor restarting it would not help; running the release command does). Outside production
 * (a developer's database, the tests' fresh ones) it only warns.
 */
import { exitRefusingToStart, getConfig } from '../../../config';
import { logger } from '../../platform/logger';
import { executedMigrationNames } from './changelog';
import { MIGRATIONS } from './index';

/** The migrations of this code not run on this database yet, in order. One read. */
export async function pendingMigrations(): Promise<string[]> {
  const executed = new Set(await executedMigrationNames());
  return MIGRATIONS.map((migration) => migration.name).filter((name) => !executed.has(name));
}

export async function refuseToStartWithPendingMigrations(processName: string): Promise<void> {
  const pending = await pendingMigrations();
  if (!pending.length) return;
  const what = `${pending.length} migration${pending.length > 1 ? 's' : ''} pending (${pending.join(', ')})`;
  if (getConfig().nodeEnv === 'production')
    exitRefusingToStart(
      `${processName} not started: ${what}. Run the release command once (the Procfile's release: node ` +
        `dist/workers/migrate.js), then start ${processName} again (docs/deploy.md#releases-and-migrations)`,
    );
  logger.warn(
    { pending },
    `${what}: run npm run migrate (with NODE_ENV=production this process would refuse to start)`,
  );
}
