// Reads the newcomer run's jest JSON report (.ci/newcomer): prints its counts as one plain line on
// stderr, and on stdout, one per line, the test files (relative to the clone) that skipped a test,
// for CI to run again with the tools the newcomer lacked.
const fs = require('fs');

const report = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const skipped = (t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'todo';
const files = report.testResults
  .filter((f) => f.assertionResults.some(skipped))
  .map((f) => f.name.slice(f.name.indexOf('/app/test/') + '/app/'.length));
process.stderr.write(`newcomer: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped\n`);
process.stdout.write(files.map((f) => `${f}\n`).join(''));
