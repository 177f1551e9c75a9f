/** Serves our Swagger 2.0 description; the UI is mounted by app.ts at /api/docs. */
import { getConfig } from '../../config';
import type { Feature } from './routes';
import { buildSwagger } from './docs';

let swagger: Record<string, unknown> | undefined;

export const docsFeature: Feature = {
  name: 'docs',
  tag: { name: 'docs', description: 'This API description' },
  routes: [
    {
      method: 'get',
      path: '/api/docs/swagger.json',
      handler: async (_req, res) => {
        // Imported lazily: features.ts lists this module too. The document is the same for the process's life.
        swagger ??= buildSwagger((await import('../features')).features, getConfig().publicBaseUrl);
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
