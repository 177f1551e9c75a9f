/**
 * The events API: a merchant's events, newest first, paged by an opaque cursor; one event by id.
 * Another merchant's event is "not found". The answer of an event is the body its endpoints received.
 */
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { badRequest, notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import { removeEndpointDeliveriesOfDay } from '../webhooks/endpoint-delivery';
import { DEFAULT_PAGE } from './limits';
import { AccountEventModel, type AccountEvent } from './model';
import type { EventAnswer, EventListAnswer } from './schemas';

export interface EventQuery {
  type?: string;
  object_id?: string;
  since?: string;
  limit?: number;
  cursor?: string;
}

export function presentEvent(event: Pick<AccountEvent, 'body'>): EventAnswer {
  return JSON.parse(event.body) as EventAnswer;
}

/** The cursor names the last event of a page: its creation time and id (the order's tie-break). */
function encodeCursor(event: Pick<AccountEvent, '_id' | 'createdAt'>): string {
  return Buffer.from(`${event.createdAt.getTime()}|${event._id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [ms, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(Number(ms));
  if (!id || !/^\d+$/.test(ms ?? '') || Number.isNaN(at.getTime())) throw badRequest({ cursor: ['Not a cursor.'] });
  return { at, id };
}

const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;

export async function listEvents(merchantId: number, query: EventQuery): Promise<EventListAnswer> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const filter: Record<string, unknown> = { merchantId };
  if (query.type) filter.type = query.type;
  if (query.object_id) filter.objectId = query.object_id;
  const createdAt: Record<string, Date> = {};
  if (query.since) createdAt.$gte = new Date(query.since);
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    filter.$or = [{ createdAt: trusted({ $lt: after.at }) }, { createdAt: after.at, _id: trusted({ $lt: after.id }) }];
  }
  if (Object.keys(createdAt).length) filter.createdAt = trusted(createdAt);
  const events = await AccountEventModel.find(filter, { body: 1, createdAt: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit + 1)
    .lean();
  const page = events.slice(0, limit);
  return {
    results: page.map(presentEvent),
    next_cursor: events.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

export async function getEvent(merchantId: number, eventId: string): Promise<EventAnswer> {
  const event = await AccountEventModel.findById(eventId).lean();
  if (!event || event.merchantId !== merchantId) throw notFound('No such event.');
  return presentEvent(event);
}

/** Days (UTC) before the retention cutoff the sweep removes, one equality each: the sweep runs every tick. */
const RETENTION_SWEEP_DAYS = 14;

/**
 * Scheduler task: events older than EVENTS_RETENTION_DAYS, and their deliveries and attempts, are removed by
 * their `day` (FerretDB has no TTL index). Each tick removes the RETENTION_SWEEP_DAYS days before the cutoff by
 * equality on the indexed `day`, so a scheduler stopped for up to two weeks still catches up.
 */
export async function removeExpiredEvents(now = new Date()): Promise<number> {
  const cutoff = now.getTime() - getConfig().events.retentionDays * 24 * 3600_000;
  let removed = 0;
  for (let back = 1; back <= RETENTION_SWEEP_DAYS; back++) {
    const day = new Date(cutoff - back * 24 * 3600_000).toISOString().slice(0, 10);
    removed += (await AccountEventModel.deleteMany({ day })).deletedCount ?? 0;
    await removeEndpointDeliveriesOfDay(day);
  }
  if (removed) logger.info({ removed }, 'removed expired account events');
  return removed;
}
