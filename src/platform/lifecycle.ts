/**
 * Process lifecycle shared by every Procfile process: start, then on SIGTERM/SIGINT stop taking
 * work, finish what is in flight, close connections and exit 0. A second signal exits at once.
 */
import { logger } from './logger';
import { stopTracing } from './tracing';

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
    // The spans of the last requests and jobs are sent before exiting (a no-op while traces are off).
    (stop ? stop() : Promise.resolve()).then(stopTracing).then(
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
  watchSupervisor(() => {
    // Our stdout was the runner's pipe and is gone with it: writing there can fail or block, so stop quietly.
    logger.level = 'silent';
    setTimeout(() => process.exit(1), 20_000); // never linger if a graceful stop cannot finish
    shutdown('supervisor gone');
  });
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

/**
 * `npm start` runs each process in its own process group (so a terminal Ctrl-C reaches only the
 * runner, which stops each child once). If the runner itself dies without stopping us (SIGKILL,
 * a crashed terminal), nobody else would: SUPERVISOR_PID names it, and we stop gracefully once
 * it is gone, so no process is left behind.
 */
function watchSupervisor(onGone: () => void): void {
  const supervisor = Number(process.env.SUPERVISOR_PID);
  if (!Number.isSafeInteger(supervisor) || supervisor <= 1) return;
  const timer = setInterval(() => {
    try {
      process.kill(supervisor, 0);
    } catch {
      clearInterval(timer);
      onGone();
    }
  }, 1000);
  timer.unref();
}
