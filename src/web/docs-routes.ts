/** Serves our Swagger 2.0 description; the UI is mounted by app.ts at /api/docs. */
import { getConfig } from '../../config';
import type { Feature } from '../http/routes';
import { buildSwagger } from './swagger';

let swagger: Record<string, unknown> | undefined;

/** The docs area describes every area it is given, itself included: `areas` is read at the first request. */
export function docsFeature(areas: () => Feature[]): Feature {
  return {
    name: 'docs',
    tag: { name: 'docs', description: 'This API description' },
    routes: [
      {
        method: 'get',
        path: '/api/docs/swagger.json',
        handler: (_req, res) => {
          // The document is the same for the process's life.
          swagger ??= buildSwagger(areas(), getConfig().publicBaseUrl);
          res.json(swagger);
        },
        doc: {
          operationId: 'getSwagger',
          summary: 'Swagger 2.0 description of this API (version 1.0)',
          tags: ['docs'],
          responses: {
            200: {
              description: 'The description',
              schema: { type: 'object', description: 'A Swagger 2.0 document', required: ['swagger', 'paths'] },
            },
          },
        },
      },
    ],
  };
}
