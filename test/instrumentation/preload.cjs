/**
 * Loaded into every process npm test starts (test/suite.ts puts it in NODE_OPTIONS), or by a test
 * itself: subscribes the recorders to what the service publishes, the requests of each route
 * (src/web/app.ts, ROUTE_REQUEST_CHANNEL) and the commands sent to the database (src/db/monitoring.ts,
 * COMMAND_STARTED_CHANNEL). The recorders are TypeScript: plain CommonJS here, they are required at
 * their first message, when the process's tsx hook is in place. Required once per process, so
 * loading it again subscribes nothing twice.
 */
const diagnosticsChannel = require('node:diagnostics_channel');

diagnosticsChannel.subscribe('payments:http:route-request', (message) => require('./answers').recordAnswer(message));
diagnosticsChannel.subscribe('payments:db:command-started', (message) =>
  require('./query-shapes').recordShape(message),
);
