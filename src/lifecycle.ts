/**
 * Process lifecycle shared by every Procfile process: start, then on SIGTERM/SIGINT stop taking
 * work, finish what is in flight, close connections and exit 0. A second signal exits at once.
 */
import { logger } from './logger';

export type Stop = () => Promise<void>;

export function runProcess(name: string, start: () => Promise<Stop>): void {
  let stop: Stop | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, `${name}: second signal, exiting now`);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, `${name}: shutting down`);
    (stop ? stop() : Promise.resolve()).then(
      () => {
        logger.info(`${name}: stopped`);
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, `${name}: error while stopping`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (err) => logger.error({ err }, `${name}: unhandled rejection`));
  start().then(
    (s) => {
      stop = s;
      if (stopping) shutdown('late');
    },
    (err) => {
      logger.fatal({ err }, `${name}: failed to start`);
      process.exit(1);
    },
  );
}
