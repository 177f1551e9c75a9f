import '../helpers/env';
import test from 'ava';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { buildApp } from '../../src/app';
import { swaggerPath } from '../../src/http/routes';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

test('the served description is valid swagger 2.0, version 1.0, with BearerAuth', async (t) => {
  const doc = await json(await fetch(`${app.url}/api/docs/swagger.json`));
  t.is(doc.swagger, '2.0');
  t.is(doc.info.version, '1.0');
  t.truthy(doc.securityDefinitions.BearerAuth);
  await t.notThrowsAsync(SwaggerParser.validate(structuredClone(doc)));
});

test('every route registered in express is described', async (t) => {
  const doc = await json(await fetch(`${app.url}/api/docs/swagger.json`));
  const express = buildApp() as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  const registered = express.router.stack.filter((layer) => layer.route).flatMap((layer) =>
    Object.keys(layer.route!.methods).map((method) => `${method} ${swaggerPath(layer.route!.path)}`),
  );
  t.true(registered.length >= 3);
  const missing = registered.filter((entry) => {
    const [method, path] = entry.split(' ');
    return !doc.paths[path]?.[method];
  });
  t.deepEqual(missing, []);
});

test('swagger ui is served', async (t) => {
  const res = await fetch(`${app.url}/api/docs/`);
  t.is(res.status, 200);
  t.regex(await res.text(), /swagger-ui/i);
});
