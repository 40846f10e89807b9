'use strict'

// The Indexed Job of a sharded run (lib/distributed/kube-job.js), as an
// object and as YAML 1.1 read back: N pods at once, each its index and the
// one start time, the run's flags as typed, and the start time a string
// even as a placeholder. The command that prints it: test/e2e/kube.test.js.

const t = require('tap')
const YAML = require('yaml')
const { jobManifest, toYaml } = require('../../lib/distributed/kube-job')

const base = { name: 'load', image: 'img:1', shards: 3, startAt: '2030-01-01T00:00:00.000Z', runArgs: ['-c', '30', '-H', 'x-mode: on', 'http://a.test/'] }

t.test('an Indexed Job of N pods, each running its shard from the one start time', async (t) => {
  const job = jobManifest(base)
  t.equal(job.kind, 'Job')
  t.same([job.spec.completionMode, job.spec.completions, job.spec.parallelism], ['Indexed', 3, 3])
  const [container] = job.spec.template.spec.containers
  t.same(container.args, ['--shard', 'auto/3', '--startAt', '2030-01-01T00:00:00.000Z', '-j', '-c', '30', '-H', 'x-mode: on', 'http://a.test/'])
  t.same(container.resources.requests, { cpu: '1', memory: '256Mi' })
  t.equal(job.spec.backoffLimitPerIndex, 1)
  t.same(job.spec.podFailurePolicy.rules[0].onExitCodes.values, [1], 'a shard that refuses is not retried')
  t.equal(job.spec.template.spec.topologySpreadConstraints[0].labelSelector.matchLabels['job-name'], 'load')
  t.notOk('namespace' in job.metadata)
})

t.test('namespace, resources, and backoffLimit for older clusters', async (t) => {
  const job = jobManifest({ ...base, namespace: 'perf', cpu: 2, memory: '1Gi', backoffLimit: 0 })
  t.equal(job.metadata.namespace, 'perf')
  t.same(job.spec.template.spec.containers[0].resources.requests, { cpu: '2', memory: '1Gi' })
  t.equal(job.spec.backoffLimit, 0)
  t.notOk('backoffLimitPerIndex' in job.spec)
  t.notOk('podFailurePolicy' in job.spec)
})

t.test('YAML 1.1: what the API server reads back is what was meant', async (t) => {
  const text = toYaml(jobManifest({ ...base, runArgs: ['-H', 'on', '--shard', '1/4', 'http://a.test/'] }), 'made by a test\n\nsecond line')
  t.match(text, /^# made by a test\n\n# second line\n/, 'the comment first, its blank line kept')
  t.match(text, /- "2030-01-01T00:00:00.000Z"/, 'the start time quoted')
  const back = YAML.parse(text, { version: '1.1' })
  t.same(back.spec.template.spec.containers[0].args.slice(5), ['-H', 'on', '--shard', '1/4', 'http://a.test/'], '`on` stays a string, not true')
  t.type(back.spec.template.spec.containers[0].args[3], 'string')
  const placeholder = toYaml(jobManifest({ ...base, startAt: '${START}' })) // eslint-disable-line no-template-curly-in-string
  t.match(placeholder, /- "\$\{START\}"/, 'a placeholder is quoted too')
})
