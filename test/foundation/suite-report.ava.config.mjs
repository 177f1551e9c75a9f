// The configuration of suite-report.test.ts's fixture run: only the fixture, which the suite's own
// glob (package.json, test/**/*.test.ts) leaves out.
export default {
  files: ['test/foundation/suite-report-fixture.ts'],
  extensions: { ts: 'commonjs' },
  nodeArguments: ['--import=tsx'],
  require: ['./test/helpers/record-time.ts'],
  workerThreads: false,
  timeout: '120s',
};
