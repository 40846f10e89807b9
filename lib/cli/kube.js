'use strict'

// `autocannon kube --shards N [--name NAME] [--image IMAGE] [--lead 60s]
// [run flags…] URL`: prints the Indexed Job (lib/distributed/kube-job.js) that runs
// the run as N shards, with the start time filled in (now + the lead,
// on a whole second), so nobody edits YAML by hand. The run flags are
// checked here as the pods will read them: a typo fails now, not in N pods.

const { raise } = require('../core/errors')
const { printWarning } = require('../core/warnings')
const { parseStartAt } = require('../config/start-at')
const { buildConfig, parseDuration } = require('../config/config')
const { jobManifest, toYaml } = require('../distributed/kube-job')
const { name: packageName, version } = require('../../package.json')
const { EXIT } = require('./exit-codes')
const { parseCli, libraryOptions } = require('./args')

const USAGE = 'usage: autocannon kube --shards N [--name NAME] [--image IMAGE] [--lead 60s | --startAt TIME] [--namespace NS] [--cpu 1] [--memory 256Mi] [--backoffLimitPerIndex 1 | --backoffLimit N] [run flags…] URL'

// kube's own flags (each takes a value); everything else is the run's.
const OWN = {
  shards: ['--shards', '--pods'],
  name: ['--name'],
  image: ['--image'],
  lead: ['--lead'],
  startAt: ['--startAt'],
  namespace: ['--namespace'],
  cpu: ['--cpu'],
  memory: ['--memory'],
  backoffLimitPerIndex: ['--backoffLimitPerIndex'],
  backoffLimit: ['--backoffLimit']
}
const FLAG_TO_OWN = new Map(Object.entries(OWN).flatMap(([key, flags]) => flags.map((f) => [f, key])))

// Run flags a pod cannot use: its files and commands stay in the pod, or
// kube sets them itself.
const REFUSED = {
  forever: '-f never ends, so the Job would never complete and no result would be printed',
  onPort: '--on-port starts a command on this machine, not in the pods',
  html: '--html would be written inside a pod: merge the results, then autocannon merge results.ndjson --html report.html',
  hgrm: '--hgrm would be written inside a pod: merge the results first',
  out: '--out would be written inside a pod: the pods print their results, which kubectl logs collects',
  thresholds: '--threshold per shard would judge a part of the load: hold the merged result to it, autocannon merge results.ndjson --threshold EXPR',
  shard: '--shard is set by kube (auto/N: each pod reads its index from the Job)'
}

// Run flags that read a file: the pods read it from their own file system.
const FILE_FLAGS = new Set(['-i', '--input', '-F', '--form', '--har', '--targets', '--cert', '--key', '--ca'])

function argument (message) {
  return raise('AC_INVALID_ARGUMENT', message)
}

function split (argv) {
  const own = {}
  const run = []
  for (let i = 0; i < argv.length; i++) {
    const token = String(argv[i])
    const eq = token.startsWith('--') ? token.indexOf('=') : -1
    const flag = eq === -1 ? token : token.slice(0, eq)
    if (token === '-h' || token === '--help') {
      own.help = true
      continue
    }
    if (!FLAG_TO_OWN.has(flag)) {
      run.push(token)
      continue
    }
    const value = eq === -1 ? argv[++i] : token.slice(eq + 1)
    if (value === undefined || value === '') throw argument(`Missing value for ${flag} (${USAGE})`)
    own[FLAG_TO_OWN.get(flag)] = String(value)
  }
  return { own, run }
}

function wholeNumber (flag, raw, min) {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw argument(`Invalid value for ${flag}: "${raw}" is not a whole number >= ${min}`)
  return n
}

// The start time the pods get: an explicit one, or now + the lead on the
// next whole second (samples then end on whole seconds). `$VAR` or
// `${VAR}` is kept as it is, for a template filled in by envsubst.
function startTime (own, now) {
  if (own.startAt !== undefined) {
    if (/^\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$/.test(own.startAt)) return { text: own.startAt, at: undefined }
    const at = parseStartAt(own.startAt, 1000, now)
    return { text: new Date(at).toISOString(), at }
  }
  let lead = 60
  if (own.lead !== undefined) {
    try {
      lead = parseDuration(own.lead)
    } catch {
      throw argument(`Invalid value for --lead: "${own.lead}" is not a number of seconds or a timestring such as 90s or 2m`)
    }
  }
  const at = Math.ceil((now + lead * 1000) / 1000) * 1000
  return { text: new Date(at).toISOString(), at }
}

// The run flags, read as a pod will read them (with its --shard and
// --startAt), so that bad input fails here.
function checkRun (run, shards, start) {
  if (run.includes('--')) throw argument(`kube: ${REFUSED.onPort}`)
  const opts = parseCli([...run, '--shard', `0/${shards}`])
  // (The command shows its help there; the pods would run nothing.)
  if (opts.help) throw argument(`Missing URL: ${USAGE}`)
  for (const [key, why] of Object.entries(REFUSED)) {
    const given = key === 'thresholds' ? opts.thresholds && opts.thresholds.length : opts[key] !== undefined && opts[key] !== false
    if (given && key !== 'shard') throw argument(`kube: ${why}`)
  }
  if (run.some((t) => t === '--shard' || t.startsWith('--shard='))) throw argument(`kube: ${REFUSED.shard}`)
  const config = buildConfig({ ...libraryOptions(opts), startAt: start.at })
  return config
}

// For the comment that shows the command: as a shell would need it.
function shellQuote (arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`
}

function run (argv, { stdout = process.stdout, stderr = process.stderr, now = Date.now() } = {}) {
  const { own, run: given } = split(argv.map(String))
  if (own.help) {
    stdout.write(`${USAGE}\n`)
    return EXIT.OK
  }
  if (own.shards === undefined) throw argument(`kube needs --shards N, the number of pods (${USAGE})`)
  const shards = wholeNumber('--shards', own.shards, 1)
  const name = own.name === undefined ? 'autocannon' : own.name
  // A Job's name labels its pods, whose host names are <name>-<index>.
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 52) {
    throw argument(`Invalid value for --name: "${name}" must be lower-case letters, digits and "-", at most 52 characters`)
  }
  // The image the repository's Dockerfile builds, named as the package is.
  const image = own.image === undefined ? `${packageName}:${version}` : own.image
  const start = startTime(own, now)
  // -j is every pod's; given again, it would only be said twice.
  const runArgs = given.filter((t) => t !== '-j' && t !== '--json')
  const config = checkRun(runArgs, shards, start)

  const manifest = jobManifest({
    name,
    image,
    shards,
    startAt: start.text,
    runArgs,
    namespace: own.namespace,
    cpu: own.cpu === undefined ? String(config.workers || 1) : own.cpu,
    memory: own.memory,
    backoffLimitPerIndex: own.backoffLimitPerIndex === undefined ? undefined : wholeNumber('--backoffLimitPerIndex', own.backoffLimitPerIndex, 0),
    backoffLimit: own.backoffLimit === undefined ? undefined : wholeNumber('--backoffLimit', own.backoffLimit, 0)
  })
  const ns = own.namespace ? ` -n ${own.namespace}` : ''
  const comment = [
    `Generated by: autocannon kube ${argv.map(shellQuote).join(' ')}`,
    `The image ${image}: built from a clone of the repository, at its root, with`,
    `  docker build -f deploy/kubernetes/Dockerfile -t ${shellQuote(image)} .`,
    '  (then pushed where the cluster pulls from, or loaded into it: kind load docker-image)',
    ...start.at === undefined
      ? [`The shards start at ${start.text}: fill it in with a time a minute or more ahead, in UTC, e.g.`,
          `  export ${start.text.replace(/[${}]/g, '')}=$(date -u -d '+90 sec' +%Y-%m-%dT%H:%M:%SZ)`,
          `  envsubst '$${start.text.replace(/[${}]/g, '')}' < job.yaml | kubectl apply${ns} -f -`]
      : [`${shards} shards start at ${start.text}: apply it before then.`,
          `  kubectl apply${ns} -f job.yaml`],
    `  kubectl wait${ns} --for=condition=complete --timeout=1h job/${name}`,
    `  kubectl logs${ns} -l job-name=${name} --tail=-1 --prefix=false > results.ndjson`,
    '  autocannon merge results.ndjson --html report.html'
  ].join('\n')
  stdout.write(toYaml(manifest, comment))
  if (given.some((t) => FILE_FLAGS.has(t.split('=')[0]))) {
    printWarning('AC_KUBE_LOCAL_FILES', 'the pods read the files named by -i, -F, --har, --targets, --cert, --key and --ca from their own file system: build them into the image at the same paths', stderr)
  }
  if (start.at !== undefined) {
    stderr.write(`${shards} shards start at ${start.text} (in ${Math.round((start.at - now) / 1000)} s): kubectl apply before then\n`)
  }
  return EXIT.OK
}

module.exports = { run }
