'use strict'

// autocannon kube: the Indexed Job it prints has the fields a sharded run
// needs (read back with a YAML parser), the checked-in example is what it
// prints, and the command its pods run, run here as four processes
// against one counting server, gives results that merge into what the
// server saw.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { execFileSync } = require('child_process')
const YAML = require('yaml')
const { run, start } = require('../helpers/cli')
const { httpServer } = require('../helpers/servers')
const { decode, createLatencyHistogram } = require('../../lib/results/histogram')
const { parseResults } = require('../../lib/results/saved-result')

const EXAMPLE = path.join(__dirname, '..', '..', 'deploy', 'kubernetes', 'job.yaml')
// Kubernetes reads manifests as YAML 1.1.
const parse = (text) => YAML.parse(text, { version: '1.1' })

async function kube (t, args) {
  const out = await run(['kube', ...args])
  t.equal(out.code, 0, out.stderr)
  return { manifest: parse(out.stdout), stdout: out.stdout, stderr: out.stderr }
}

t.test('the Indexed Job: N pods at once, each its index, one start time', async (t) => {
  const before = Date.now()
  const { manifest, stderr } = await kube(t, ['--shards', '4', '--name', 'load', '--image', 'registry.example.com/autocannon:1', '-c', '100', '-d', '60', '-H', 'x-mode: on', 'http://example.com:3000/'])
  t.equal(manifest.apiVersion, 'batch/v1')
  t.equal(manifest.kind, 'Job')
  t.equal(manifest.metadata.name, 'load')
  const spec = manifest.spec
  t.equal(spec.completionMode, 'Indexed')
  t.equal(spec.completions, 4)
  t.equal(spec.parallelism, 4)
  t.equal(spec.backoffLimitPerIndex, 1)
  t.same(spec.podFailurePolicy.rules, [{ action: 'FailIndex', onExitCodes: { containerName: 'autocannon', operator: 'In', values: [1] } }],
    'a shard that refuses (its start time has passed) is not retried again')
  const pod = spec.template.spec
  t.equal(pod.restartPolicy, 'Never')
  t.equal(pod.topologySpreadConstraints[0].topologyKey, 'kubernetes.io/hostname')
  t.equal(pod.containers.length, 1)
  const [container] = pod.containers
  t.equal(container.image, 'registry.example.com/autocannon:1')
  t.same(container.command, ['autocannon'])
  const args = container.args
  t.same(args.slice(0, 2), ['--shard', 'auto/4'])
  t.equal(args[2], '--startAt')
  t.same(args.slice(4), ['-j', '-c', '100', '-d', '60', '-H', 'x-mode: on', 'http://example.com:3000/'], 'the run flags as typed, strings all')
  t.type(args[3], 'string', 'the start time is a string, not a YAML timestamp')
  const at = Date.parse(args[3])
  t.match(args[3], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/, 'on a whole second, in UTC')
  t.ok(at >= before + 59000 && at <= Date.now() + 62000, `starts ${((at - before) / 1000).toFixed(1)} s from now (the 60 s lead)`)
  t.same(container.resources.requests, { cpu: '1', memory: '256Mi' })
  t.match(stderr, /4 shards start at .*Z \(in \d+ s\)/)
})

t.test('options: lead, start time, namespace, retries for older clusters, workers', async (t) => {
  const { manifest } = await kube(t, ['--shards', '2', '--lead', '2m', '--namespace', 'load', '--backoffLimit', '0', '-w', '2', '-c', '4', 'http://example.com/'])
  t.equal(manifest.metadata.namespace, 'load')
  t.equal(manifest.spec.backoffLimit, 0)
  t.notOk('backoffLimitPerIndex' in manifest.spec, 'no per-index fields with --backoffLimit (before Kubernetes 1.29)')
  t.notOk('podFailurePolicy' in manifest.spec)
  t.equal(manifest.spec.template.spec.containers[0].resources.requests.cpu, '2', 'a core per worker')
  const at = Date.parse(manifest.spec.template.spec.containers[0].args[3])
  t.ok(at - Date.now() > 100000, '2 minutes ahead')
  const fixed = await kube(t, ['--shards', '2', '--startAt', '2099-01-01T00:00:00Z', 'http://example.com/'])
  t.equal(fixed.manifest.spec.template.spec.containers[0].args[3], '2099-01-01T00:00:00.000Z')
})

t.test('what a pod cannot do is refused in one line', async (t) => {
  for (const [args, message] of [
    [['http://example.com/'], /kube needs --shards N/],
    [['--shards', '0', 'http://example.com/'], /Invalid value for --shards/],
    [['--shards', '4', '-c', '2', 'http://example.com/'], /4 shards need connections \(-c\) of at least 4/],
    [['--shards', '2', '--html', 'r.html', 'http://example.com/'], /kube: --html would be written inside a pod/],
    [['--shards', '2', '--out', 'r.json', 'http://example.com/'], /kube: --out/],
    [['--shards', '2', '-f', 'http://example.com/'], /kube: -f never ends/],
    [['--shards', '2', '--threshold', 'p99<10ms', 'http://example.com/'], /autocannon merge results\.ndjson --threshold/],
    [['--shards', '2', '--shard', '0/2', 'http://example.com/'], /--shard is set by kube/],
    [['--shards', '2', '--startAt', '2001-01-01T00:00:00Z', 'http://example.com/'], /in the past/],
    [['--shards', '2', '--name', 'Load_Test', 'http://example.com/'], /Invalid value for --name/],
    [['--shards', '2', '-c', 'x', 'http://example.com/'], /Error: connections can not be less than 1 \(-c\/--connections: "x" is not a number\)/],
    [['--shards', '2'], /Missing URL/]
  ]) {
    const out = await run(['kube', ...args])
    t.equal(out.code, 1, args.join(' '))
    t.equal(out.stdout, '', 'no manifest')
    t.equal(out.stderr.trim().split('\n').length, 1, 'one line')
    t.match(out.stderr, message)
  }
})

// The command on the first line, split as a shell would ('…' quoting).
function commandOf (file) {
  const line = fs.readFileSync(file, 'utf8').split('\n')[0].replace(/^# Generated by: autocannon /, '')
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2])
}

t.test('deploy/kubernetes/job.yaml is what the generator prints, and a template', async (t) => {
  const args = commandOf(EXAMPLE)
  t.equal(args[0], 'kube')
  const out = await run(args)
  t.equal(out.code, 0, out.stderr)
  t.equal(out.stdout, fs.readFileSync(EXAMPLE, 'utf8'), 'regenerated, the file is the same (regenerate it when kube changes)')
  t.match(out.stdout, /- "\$\{START\}"/, 'the start time is a quoted ${START}') // eslint-disable-line no-template-curly-in-string
  const filled = out.stdout.replaceAll('${START}', '2030-01-01T00:00:00Z') // eslint-disable-line no-template-curly-in-string
  t.equal(parse(filled).spec.template.spec.containers[0].args[3], '2030-01-01T00:00:00Z', 'filled in, still a string')
  const script = await run(['--help'])
  t.match(script.stderr, /autocannon kube --shards N/, 'the help (on stderr, as autocannon prints it) names kube')
})

t.test('kubectl accepts it, where a cluster answers', async (t) => {
  const file = path.join(t.testdir({}), 'job.yaml')
  fs.writeFileSync(file, (await run(['kube', '--shards', '3', 'http://example.com/'])).stdout)
  try {
    execFileSync('kubectl', ['create', '--dry-run=client', '-o', 'name', '-f', file], { stdio: 'pipe', timeout: 20000 })
    t.pass('kubectl create --dry-run=client accepts it')
  } catch (err) {
    const why = String(err.stderr || err.message)
    if (err.code === 'ENOENT' || /connection refused|unable to recognize|failed to download openapi|couldn't get current server/i.test(why)) {
      t.skip(`no cluster for kubectl to check against: ${why.split('\n').filter(Boolean).pop()}`)
    } else {
      t.fail(why)
    }
  }
})

t.test('the pods\' command, as four processes against one server, merges into what the server saw', async (t) => {
  const arrivals = []
  const url = await httpServer(t, (req, res) => {
    arrivals.push(Date.now())
    res.end('hello')
  })
  // Room for four processes to start on a busy machine.
  const { manifest } = await kube(t, ['--shards', '4', '--lead', '6s', '-c', '8', '-d', '3', '-R', '800', url])
  const [container] = manifest.spec.template.spec.containers
  t.same(container.command, ['autocannon'])
  const startAt = Date.parse(container.args[3])

  const shards = [0, 1, 2, 3].map((i) => start(container.args, { extraEnv: { JOB_COMPLETION_INDEX: String(i) } }))
  const outs = await Promise.all(shards.map((c) => c.done))
  outs.forEach((out, i) => t.equal(out.code, 0, `shard ${i}: ${out.stderr}`))
  // As kubectl logs gives them: each pod's stderr and stdout, one pod after another.
  const dir = t.testdir({})
  const logs = path.join(dir, 'results.ndjson')
  fs.writeFileSync(logs, outs.map((o) => o.stderr + o.stdout).join(''))
  const results = outs.map((o) => parseResults(o.stdout, 'stdout')[0])
  t.same(results.map((r) => r.shard.index), [0, 1, 2, 3])
  t.same(results.map((r) => r.connections), [2, 2, 2, 2])

  const merge = await run(['merge', logs, '-j'])
  t.equal(merge.code, 0, merge.stderr)
  // (and a shard that got going a second late on a busy machine, and the
  // merged run's generator health, if its shards were delayed)
  t.match(merge.stderr, /^merged 4 of 4 shards, start skew \d+ ms\n(cannonade: warning: shard \d began \d+ s after the first: [^\n]+\n)*(cannonade: warning: the generator may have distorted the latency: [^\n]+\n)?$/, 'the count and the start skew')
  const merged = JSON.parse(merge.stdout)
  t.equal(merged.merge.shards, 4)
  t.ok(merged.merge.startSkewMs < 1000, `start skew ${merged.merge.startSkewMs} ms`)
  t.equal(merged.connections, 8)
  t.equal(merged.errors, 0)
  t.ok(arrivals.length >= merged.requests.total && arrivals.length <= merged.requests.total + merged.requests.inFlight,
    `the server counted ${arrivals.length}: the ${merged.requests.total} answered, and up to the ${merged.requests.inFlight} in flight`)
  t.ok(arrivals[0] >= startAt - 15, `nothing before the start time (first ${arrivals[0] - startAt} ms after it)`)

  const sum = createLatencyHistogram()
  for (const r of results) sum.add(decode(r.histograms.latency))
  const histogram = decode(merged.histograms.latency)
  let differing = 0
  for (let i = 0; i < sum.countsArrayLength; i++) if (sum.getCountAtIndex(i) !== histogram.getCountAtIndex(i)) differing++
  t.equal(differing, 0, 'the merged histogram is the bucket-wise sum of the four')

  merged.series.time.forEach((end, i) => {
    const shardsSum = results.reduce((n, r) => n + (r.series.time.indexOf(end) === -1 ? 0 : r.series.requests[r.series.time.indexOf(end)]), 0)
    t.equal(merged.series.requests[i], shardsSum, `second ${i + 1}: the four shards' requests summed`)
    const atServer = arrivals.filter((a) => a >= end - 1000 && a < end).length
    const slack = Math.max(6, merged.series.requests[i] * 0.03)
    t.ok(Math.abs(atServer - merged.series.requests[i]) <= slack, `second ${i + 1}: ${merged.series.requests[i]} merged, ${atServer} at the server`)
  })
})
