'use strict'

// The Kubernetes Indexed Job that runs one load test as N shards: N pods
// at once, each told its index by the Job (JOB_COMPLETION_INDEX), all
// starting at one wall-clock time, each printing its result as one JSON
// line that `kubectl logs` collects for `autocannon merge`.
//
// Written as an object and turned into YAML by a YAML library, not a
// template: run flags hold anything (URLs, header values, `on`, `1/4`,
// times), and the API server reads YAML 1.1, where an unquoted `on` is a
// boolean and an ISO time a timestamp. Stringifying for YAML 1.1 quotes
// exactly what needs it.

const YAML = require('yaml')

const CONTAINER = 'autocannon'

// name, image, shards, startAt (the string the pods get), runArgs (the
// run's own flags and URL, as typed), cpu, memory, namespace,
// backoffLimitPerIndex, or backoffLimit for clusters before 1.29.
function jobManifest ({ name, image, shards, startAt, runArgs, cpu = '1', memory = '256Mi', namespace, backoffLimitPerIndex = 1, backoffLimit }) {
  const labels = { 'app.kubernetes.io/name': 'autocannon', 'app.kubernetes.io/instance': name }
  const spec = {
    completionMode: 'Indexed',
    completions: shards,
    parallelism: shards
  }
  if (backoffLimit !== undefined) {
    spec.backoffLimit = backoffLimit
  } else {
    // A shard that failed before the start time is retried and can still
    // make it. After it, a retry can only refuse (the time is past: exit
    // 1), and so does bad input: the index fails at once.
    spec.backoffLimitPerIndex = backoffLimitPerIndex
    spec.podFailurePolicy = {
      rules: [{ action: 'FailIndex', onExitCodes: { containerName: CONTAINER, operator: 'In', values: [1] } }]
    }
  }
  spec.template = {
    metadata: { labels: { ...labels } },
    spec: {
      restartPolicy: 'Never',
      // One generator per node where there are enough nodes: shards on
      // one node would share its CPU and network.
      topologySpreadConstraints: [{
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'job-name': name } }
      }],
      containers: [{
        name: CONTAINER,
        image,
        command: ['autocannon'],
        args: shardArgs(shards, startAt, runArgs),
        resources: { requests: { cpu: String(cpu), memory: String(memory) } }
      }]
    }
  }
  const metadata = { name }
  if (namespace) metadata.namespace = namespace
  metadata.labels = { ...labels }
  return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec }
}

// What every pod runs: its part, the shared start time, the result as
// one JSON line on stdout.
function shardArgs (shards, startAt, runArgs) {
  return ['--shard', `auto/${shards}`, '--startAt', startAt, '-j', ...runArgs]
}

function toYaml (manifest, comment) {
  const doc = new YAML.Document(manifest, { version: '1.1' })
  // The start time stays quoted even as a ${START} placeholder, so that
  // the time envsubst puts there is read as a string too.
  for (const container of doc.getIn(['spec', 'template', 'spec', 'containers']).items) {
    const args = container.get('args', true)
    const at = args.items.findIndex((item) => item.value === '--startAt')
    if (at !== -1 && args.items[at + 1]) args.items[at + 1].type = 'QUOTE_DOUBLE'
  }
  if (comment) doc.commentBefore = comment.split('\n').map((line) => line === '' ? '' : ` ${line}`).join('\n')
  return doc.toString({ lineWidth: 0 })
}

module.exports = { jobManifest, toYaml }
