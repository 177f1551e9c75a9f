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
 * A compiled process (the Procfile's `node dist/...`, test/foundation/compiled.test.ts) has no tsx hook: the
 * query-shape recorder then registers tsx for itself, in this test-only preload, never in the service's code. The
 * answer recorder reads the routes from src/ and would load a second copy of the service beside the compiled one
 * (mongoose refuses a model defined twice): such a process's answers go unrecorded, its queries are checked.
 * Asked at the first message, not here: this file is required before `--import tsx` puts its hook in place.
 */
let compiled;
const isCompiled = () => (compiled ??= !require.extensions['.ts']);

diagnosticsChannel.subscribe('payments:http:route-request', (message) => {
  if (!isCompiled()) require('./answers').recordAnswer(message);
});
diagnosticsChannel.subscribe('payments:db:command-started', (message) => {
  if (isCompiled() && !require.extensions['.ts']) require('tsx/cjs/api').register();
  require('./query-shapes').recordShape(message);
});
