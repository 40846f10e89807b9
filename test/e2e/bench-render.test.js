'use strict'

// `npm run bench -- --render FILE` shows a report kept with --json as the
// tables a run prints, without starting any server or generator.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawnSync } = require('child_process')

const BENCH = path.join(__dirname, '..', '..', 'bench', 'run.js')

function summary (runs) {
  const sorted = [...runs].sort((a, b) => a - b)
  return { median: sorted[1], min: sorted[0], max: sorted[2], runs }
}

const report = {
  machine: { cpu: 'Test CPU', cores: 2, memory: '24 GiB', os: 'Linux 6.0', node: 'v20.0.0', wrk: null, pinning: 'generator on CPU 0, target on CPU 1' },
  options: { reps: 3, duration: 10 },
  targets: [{ name: 'canned', description: 'raw net server', url: 'http://127.0.0.1:1/' }],
  scenarios: [
    {
      name: 'c100',
      target: 'canned',
      flags: '-c 100 -d 10',
      tools: {
        ours: { rps: summary([140000, 150000, 145000]), cpuUs: summary([6.5, 6.9, 6.7]), errors: 0 },
        autocannon: { rps: summary([90000, 99000, 98000]), cpuUs: summary([10.1, 11.3, 10.3]), errors: 2 }
      },
      ratios: { 'ours/autocannon CPU per request': 0.6543 },
      goals: [{ goal: 'CPU per request ≤ 0.6× autocannon', value: 0.6543, met: false }]
    },
    {
      name: 'startup',
      target: 'canned',
      flags: '-c 1 -a 100',
      tools: { ours: { cpuSeconds: summary([0.088, 0.09, 0.089]), wall: summary([0.095, 0.1, 0.096]) } },
      goals: [{ goal: 'start-up CPU ≤ 0.10 s', value: 0.089, met: true }]
    },
    {
      name: 'search',
      target: 'capacity',
      flags: "--findMaxRate --slo 'p99<50ms' -c 100",
      runs: [{ capacity: 1500, status: 'found', best: 1484, failed: 1512, error: -0.010667, steps: 9, wall: 61.23, sentence: 'Sustains 1,484 req/s at 100 connections with p99 < 50 ms (p99 2.1 ms, 0 errors); 1,512 req/s failed (p99 180 ms).' }],
      goals: [{ goal: 'found within 3% of the true capacity', value: 0.010667, met: true }, { goal: 'wall time per search ≤ 90 s', value: 61.23, met: true }]
    }
  ]
}

function render (file) {
  return spawnSync(process.execPath, [BENCH, '--render', file], { encoding: 'utf8', timeout: 30000 })
}

t.test('a saved report prints as tables with medians, ranges, ratios and goals', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'report.json')
  fs.writeFileSync(file, JSON.stringify(report))

  const { status, stdout, stderr } = render(file)
  t.equal(status, 0, stderr)
  t.match(stdout, /^Machine: Test CPU, 2 cores, 24 GiB, Linux 6\.0, Node v20\.0\.0$/m)
  t.match(stdout, /Medians of 3 interleaved run\(s\)/)
  t.match(stdout, /c100 · canned · -c 100 -d 10/)
  t.match(stdout, /│ ours\s+│ 145,000 \(140,000–150,000\)\s+│ 6\.70 \(6\.50–6\.90\)\s+│ 0\s+│/)
  t.match(stdout, /│ autocannon\s+│ 98,000 \(90,000–99,000\)\s+│ 10\.30 \(10\.10–11\.30\)\s+│ 2\s+│/)
  t.match(stdout, /^ours\/autocannon CPU per request: 0\.65$/m)
  t.match(stdout, /^MISSED CPU per request ≤ 0\.6× autocannon: 0\.654$/m)
  t.match(stdout, /│ ours\s+│ 0\.089 \(0\.088–0\.090\)\s+│ 0\.096 \(0\.095–0\.100\)\s+│/)
  t.match(stdout, /^met {4}start-up CPU ≤ 0\.10 s: 0\.089$/m)
  t.match(stdout, /search · capacity · --findMaxRate --slo 'p99<50ms' -c 100/)
  t.match(stdout, /│ 1500\s+│ 1484\s+│ 1512\s+│ -1\.1%\s+│ 9\s+│ 61\.2\s+│/)
  t.match(stdout, /^Sustains 1,484 req\/s at 100 connections/m)
  t.match(stdout, /^met {4}wall time per search ≤ 90 s: 61\.230$/m)
})

t.test('a file that is missing or not a report is refused in one line, exit 1', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const missing = render(path.join(dir, 'nope.json'))
  t.equal(missing.status, 1)
  t.match(missing.stderr, /^bench: cannot read a report from .*nope\.json: ENOENT/)
  t.notMatch(missing.stderr, /\n\s+at /, 'no stack trace')

  const other = path.join(dir, 'other.json')
  fs.writeFileSync(other, '{"hello": 1}')
  const wrong = render(other)
  t.equal(wrong.status, 1)
  t.match(wrong.stderr, /^bench: .*other\.json is not a report written by --json/)
  t.equal(wrong.stdout, '')

  const partial = path.join(dir, 'partial.json')
  fs.writeFileSync(partial, '{"scenarios": []}')
  const half = render(partial)
  t.equal(half.status, 1)
  t.match(half.stderr, /^bench: .*partial\.json is not a report written by --json/)
  t.notMatch(half.stderr, /\n\s+at /, 'no stack trace')
})
