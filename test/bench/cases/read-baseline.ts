import type { Request, Router } from 'express';

/**
 * A case's `mountBaseline` for a route whose work is a single indexed read: a bare GET route at `path` that
 * answers the one document `read` finds, as JSON, or 404.
 */
export function readBaseline(path: string, read: (req: Request) => Promise<unknown>): (router: Router) => void {
  return (router) =>
    router.get(path, async (req, res) => {
      const found = await read(req);
      res.status(found ? 200 : 404).json(found ?? {});
    });
}
