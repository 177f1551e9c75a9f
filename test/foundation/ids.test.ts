import '../helpers/env';
import test from 'ava';
import { spawn } from 'node:child_process';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { getConfig } from '../../config';
import { claimBlock, forgetLocalBlocks, nextId } from '../../src/db/ids';
import { ROOT } from '../helpers/processes';

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(() => disconnectDatabase());

test.serial('ids from many concurrent callers in one process are unique', async (t) => {
  const ids = await Promise.all(Array.from({ length: 200 }, () => nextId('concurrency')));
  t.is(new Set(ids).size, ids.length);
  t.deepEqual(
    [...ids].sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
});

test.serial('concurrent block claims never hand out the same block', async (t) => {
  const blocks = await Promise.all(Array.from({ length: 30 }, () => claimBlock('blocks')));
  t.is(new Set(blocks).size, 30);
});

test.serial('a fresh process continues after the blocks already claimed', async (t) => {
  const first = await nextId('restart');
  forgetLocalBlocks();
  const second = await nextId('restart');
  t.is(first, 1);
  t.is(second, getConfig().idBlockSize + 1);
});

test.serial('ids from several processes at once are unique', async (t) => {
  const script = `
    const { connectDatabase, disconnectDatabase } = require('./src/db/connection');
    const { nextId } = require('./src/db/ids');
    (async () => {
      await connectDatabase(process.env.MONGODB_URI);
      const ids = await Promise.all(Array.from({ length: 60 }, () => nextId('multi')));
      process.stdout.write(JSON.stringify(ids));
      await disconnectDatabase();
    })();`;
  const runOne = () =>
    new Promise<number[]>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: ROOT,
        env: { ...process.env, ID_BLOCK_SIZE: '5' },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`))));
    });
  const all = (await Promise.all([runOne(), runOne(), runOne()])).flat();
  t.is(all.length, 180);
  t.is(new Set(all).size, 180);
});
