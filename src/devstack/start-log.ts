/**
 * Lines of `npm start`'s log that say what this stack owns and allows: the services it started (and stops when it
 * stops) apart from those it found running (another run's, which go away when that run stops them), and the local
 * webhook switch.
 */
import type { Config } from '../../config';
import { SERVICE_LABELS, type FoundService, type ServicesOutcome, type StartedService } from './services';

const label = (name: string) => SERVICE_LABELS[name] ?? name;

function startedPhrase(service: StartedService): string {
  return `${label(service.name)} (pid ${service.child.pid})`;
}

function foundPhrase(service: FoundService): string {
  const pid = service.pid === null ? '' : `, pid ${service.pid}`;
  return `${label(service.name)} at ${service.url}${pid}, started by ${service.owner}`;
}

/** What this stack started and what it found, one line each, and a warning when another stack owns one it uses. */
export function describeServices({ started, found }: ServicesOutcome): string {
  const lines: string[] = [];
  if (started.length)
    lines.push(
      `[start] started ${started.map(startedPhrase).join(' and ')}: this stack stops ` +
        `${started.length > 1 ? 'them' : 'it'} when it stops`,
    );
  for (const service of found) lines.push(`[start] found ${foundPhrase(service)}; not this stack's to stop`);
  const borrowed = found.filter((service) => service.ownedByAnotherStack).map((service) => label(service.name));
  if (borrowed.length)
    lines.push(
      `[start] warning: ${borrowed.join(' and ')} ${borrowed.length > 1 ? 'go' : 'goes'} away when the stack that ` +
        `started ${borrowed.length > 1 ? 'them' : 'it'} stops, and this stack then loses its database or queues; to ` +
        'keep shared services for every stack, run `npm run services` first (they run until `npm run services -- ' +
        'stop`)',
    );
  return lines.map((line) => `${line}\n`).join('');
}

/** At shutdown: what was stopped, and what was left running because this stack did not start it. */
export function describeStop(name: string, pid: number | undefined, stopped: boolean): string {
  return stopped
    ? `[start] stopped ${label(name)} (pid ${pid})\n`
    : `[start] ${label(name)} (pid ${pid}) had exited already: nothing to stop\n`;
}

export function describeLeftRunning(found: FoundService[]): string {
  return found.length
    ? `[start] left ${found.map((service) => label(service.name)).join(' and ')} running: this stack did not ` +
        'start them\n'
    : '';
}

/**
 * The local webhook switch: on unless set (npm start runs a developer's stack, whose receiver is on this machine);
 * the line names the variable either way.
 */
export function describeWebhooks(config: Pick<Config, 'webhooks'>, setByYou: boolean): string {
  return config.webhooks.allowLocalhost
    ? '[start] webhooks: WEBHOOKS_ALLOW_LOCALHOST=true' +
        `${setByYou ? '' : ' (npm start sets it unless you do)'}: a webhook URL may be http or https to ` +
        'localhost, 127.0.0.1 or [::1] on any port (docs/api/events.md#a-receiver-on-your-machine)\n'
    : '[start] webhooks: WEBHOOKS_ALLOW_LOCALHOST=false (set by you): webhook URLs must be public HTTPS on port ' +
        `${config.webhooks.allowedPorts.join(' or ')}\n`;
}
