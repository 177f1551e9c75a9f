/**
 * Loaded into every process npm test starts (test/suite.ts puts it in NODE_OPTIONS), or by a test
 * itself: subscribes the recorders to what the service publishes, the requests of each route
 * (src/web/app.ts, ROUTE_REQUEST_CHANNEL) and the commands sent to the database (src/db/monitoring.ts,
 * COMMAND_STARTED_CHANNEL). The recorders are TypeScript: plain CommonJS here, they are required at
 * their first message, when the process's tsx hook is in place. Required once per process, so
 * loading it again subscribes nothing twice.
 */
const diagnosticsChannel = require('node:diagnostics_channel');

/**
 * A compiled process has no tsx hook. Under npm test the processes tests start run the suite's own build
 * (TEST_BUILD_DIR, tsconfig.test-build.json), which holds these recorders compiled beside the service: they are
 * required from there, so the answer recorder reads the same route modules the process runs. Any other compiled
 * process (the Procfile's `node dist/...`, test/foundation/compiled.test.ts): the query-shape recorder registers tsx
 * for itself, in this test-only preload, never in the service's code; the answer recorder would load a second copy
 * of the service from src/ beside the compiled one (mongoose refuses a model defined twice), so such a process's
 * answers go unrecorded and its queries are checked.
 * Asked at the first message, not here: this file is required before `--import tsx` puts its hook in place.
 */
const path = require('node:path');

let kind;
const processKind = () => {
  if (kind) return kind;
  if (require.extensions['.ts']) return (kind = 'source');
  const build = process.env.TEST_BUILD_DIR;
  const main = require.main?.filename ?? process.argv[1] ?? '';
  return (kind = build && main.startsWith(build + path.sep) ? 'build' : 'other');
};
const recorder = (name) =>
  processKind() === 'build'
    ? require(path.join(process.env.TEST_BUILD_DIR, 'test', 'instrumentation', `${name}.js`))
    : require(`./${name}`);

diagnosticsChannel.subscribe('payments:http:route-request', (message) => {
  if (processKind() !== 'other') recorder('answers').recordAnswer(message);
});
diagnosticsChannel.subscribe('payments:db:command-started', (message) => {
  if (processKind() === 'other' && !require.extensions['.ts']) require('tsx/cjs/api').register();
  recorder('query-shapes').recordShape(message);
});
