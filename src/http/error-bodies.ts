/**
 * The two error bodies every route may answer, declared once (src/http/schema.ts) for the served
 * definitions; the web's error handler (src/web/errors.ts) builds them.
 */
import { definition, field, required } from './schema';

/** The body of every error but a field-level one. */
export const errorDetail = definition('ErrorDetail', field.object({ detail: required(field.string()) }));

/** A validation failure's body: the field map, or the one `detail` of a request that could not be read. */
export const fieldErrors = definition(
  'FieldErrors',
  field
    .object({
      detail: field.string().description('Only when the request could not be read; then the one key'),
    })
    .pattern(/./, field.array(field.string()))
    .description(
      'Field-level validation errors: field name to the list of its messages. Several fields may be reported ' +
        'at once. A request that cannot be read at all (malformed JSON, an unsupported body encoding, a NUL ' +
        'character in the path or query string) is answered {"detail": "..."} instead.',
    ),
);
