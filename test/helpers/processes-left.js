'use strict'

// The suite's last test: tap runs it after every test file has ended,
// passed or not (.taprc's after). It lists every process the run's tree
// started that is still running (suite-run.js: they carry the run's id in
// their environment, whoever their parent is now), and fails naming them:
// a server, a CLI or a command a test left behind. It gives them GRACE_MS
// to go first (a teardown's SIGTERM may still be on its way), then ends
// them, so that they do not outlive the run. Linux only (/proc).
//
// `node processes-left.js [id]`: the run `id` (default: the tap runner's,
// this process's parent).

const { runId, processesOf } = require('./suite-run')

const GRACE_MS = 5000
const POLL_MS = 50

async function main () {
  if (process.platform !== 'linux') {
    process.stdout.write('# processes left by the suite: not checked (reads /proc)\n')
    return 0
  }
  const id = process.argv[2] || runId(process.ppid)
  const until = Date.now() + GRACE_MS
  let left = processesOf(id, [process.pid])
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    left = processesOf(id, [process.pid])
  }
  if (left.length === 0) {
    process.stdout.write('# processes left by the suite: none\n')
    return 0
  }
  const lines = left.map(({ pid, cmd }) => `#   pid ${pid}: ${cmd}\n`).join('')
  process.stderr.write(`not ok - ${left.length} process${left.length === 1 ? '' : 'es'} the suite started still running ${GRACE_MS / 1000} s after its last test (ended now):\n${lines}`)
  for (const { pid } of left) try { process.kill(pid, 'SIGKILL') } catch {}
  return 1
}

main().then((code) => { process.exitCode = code })
