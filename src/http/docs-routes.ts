/** Serves our Swagger 2.0 description; the UI is mounted by app.ts at /api/docs. */
import { getConfig } from '../../config';
import type { Feature } from './routes';
import { buildSwagger } from './docs';

export const docsFeature: Feature = {
  name: 'docs',
  tag: { name: 'docs', description: 'This API description' },
  routes: [
    {
      method: 'get',
      path: '/api/docs/swagger.json',
      handler: async (_req, res) => {
        const { features } = await import('../features');
        res.json(buildSwagger(features, getConfig().publicBaseUrl));
      },
      doc: { summary: 'Swagger 2.0 description of this API (version 1.0)', tags: ['docs'], responses: { 200: { description: 'The description' } } },
    },
  ],
};
