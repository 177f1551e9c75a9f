/**
 * Who listens on a loopback port, and who started that process, read from /proc (Linux; elsewhere each answer is
 * "unknown"). `npm start` uses it to say which services it started and which it found: two stacks starting at once
 * both spawn a FerretDB, one of which cannot bind the port; the one that lost must say it found the other's, whose
 * owner stops it when that owner stops.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/project-root';

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A process's command line, its arguments joined by spaces ('' when it is gone or not ours to read). */
export function commandLineOf(pid: number): string {
  return read(`/proc/${pid}/cmdline`).replace(/\0/g, ' ');
}

/** The socket inodes listening on this TCP port (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6'])
    for (const line of read(table).split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (fields.length > 9 && fields[1].endsWith(`:${hexPort}`) && fields[3] === '0A') inodes.add(fields[9]);
    }
  inodes.delete('0');
  return inodes;
}

/** The pid of the process listening on this port, or null when none is, or this machine does not say. */
export function listenerPid(port: number): number | null {
  const inodes = listeningInodes(port);
  if (!inodes.size) return null;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return Number(pid);
    }
  }
  return null;
}

function parentOf(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/** Who started the process listening at pid, as a phrase; and whether it is another `npm start` (which stops it). */
export function ownerOf(name: string, pid: number | null): { owner: string; ownedByAnotherStack: boolean } {
  if (pid === null) return { owner: 'a process this user cannot see (a system service?)', ownedByAnotherStack: false };
  if (read(path.join(PROJECT_ROOT, '.data', `${name}.pid`)).trim() === String(pid))
    return { owner: 'npm run services, which keeps it until `npm run services -- stop`', ownedByAnotherStack: false };
  const parent = parentOf(pid);
  const parentCommand = parent ? commandLineOf(parent) : '';
  if (parentCommand.includes(path.join('src', 'devstack', 'start.ts')))
    return { owner: `another npm start (pid ${parent}), which stops it when it stops`, ownedByAnotherStack: true };
  if (parentCommand.includes(path.join('test', 'suite.ts')))
    return { owner: `npm test (pid ${parent}), which stops it when the run ends`, ownedByAnotherStack: false };
  if (!parent || parent === 1 || !parentCommand)
    return { owner: 'an earlier run that left it running', ownedByAnotherStack: false };
  return { owner: `pid ${parent}: ${parentCommand.slice(0, 80).trim()}`, ownedByAnotherStack: false };
}
