/** Serves our Swagger 2.0 description; the UI is mounted by app.ts at /api/docs. */
import { getConfig } from '../../config';
import type { Feature } from '../http/routes';
import { field, required, swaggerOf, swaggerOnly } from '../http/schema';
import { buildSwagger } from './swagger';

/** The answer requires the two keys every Swagger 2.0 document has and does not restate Swagger's own schema. */
const swaggerDocument = swaggerOnly(
  field
    .object({ swagger: required(field.oneOf(['2.0'])), paths: required(field.record(field.any())) })
    .description('A Swagger 2.0 document'),
  { properties: null },
);

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
              schema: swaggerOf(swaggerDocument),
            },
          },
        },
      },
    ],
  };
}
