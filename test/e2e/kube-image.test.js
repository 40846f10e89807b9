'use strict'

// deploy/kubernetes/Dockerfile, without a container engine: its
// instructions read back (base image, lockfile install, user, entrypoint
// in step with the command `autocannon kube` puts in the Job's manifest),
// then its COPY and RUN steps carried out in a scratch folder standing for
// its WORKDIR, as a user would type them, and the manifest's command and
// arguments run from there (as another user than root where this machine
// allows it) against a server on 127.0.0.1.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFile } = require('child_process')
const YAML = require('yaml')
const { run } = require('../helpers/cli')
const { httpServer } = require('../helpers/servers')

const ROOT = path.join(__dirname, '..', '..')
const DOCKERFILE = path.join(ROOT, 'deploy', 'kubernetes', 'Dockerfile')
const pkg = require('../../package.json')

// An npm install can take a minute on a busy machine.
const TIMEOUT = 5 * 60 * 1000
t.setTimeout(TIMEOUT)
t.comment(`timeout=${TIMEOUT}`)

// [{ op, arg }], continuation lines joined, comments dropped.
function instructions (text) {
  const out = []
  let line = ''
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue
    line += raw.replace(/\\$/, '')
    if (raw.endsWith('\\')) continue
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line)
    if (m) out.push({ op: m[1], arg: m[2].trim() })
    line = ''
  }
  return out
}

const steps = instructions(fs.readFileSync(DOCKERFILE, 'utf8'))
const only = (op) => steps.filter((s) => s.op === op)

function exec (file, args, opts) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 180000, maxBuffer: 16 * 1024 * 1024, ...opts }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : String(err.code || err.signal)) : 0, stdout, stderr })
    })
  })
}

// The container of the Job `autocannon kube` prints for these run flags.
async function manifestContainer (t, args) {
  const out = await run(['kube', '--shards', '1', ...args])
  t.equal(out.code, 0, out.stderr)
  return YAML.parse(out.stdout, { version: '1.1' }).spec.template.spec.containers[0]
}

t.test('the image: a supported Node, the lockfile, not root, the manifest\'s command', async (t) => {
  t.same(only('FROM').map((s) => s.arg), ['node:24-slim'], 'one stage, on Node 24 (the active LTS CI runs the suite on)')
  const runs = only('RUN').map((s) => s.arg).join(' && ')
  t.match(runs, /\bnpm ci --omit=dev\b/, 'dependencies as package-lock.json pins them, without dev ones')
  t.notMatch(runs, /\bnpm (install|i)\b/, 'never npm install, which ignores the lockfile')
  const users = only('USER').map((s) => s.arg)
  t.equal(users.length, 1)
  t.notOk(['root', '0'].includes(users[0].split(':')[0]), `runs as ${users[0]}, not root`)
  t.ok(steps.findIndex((s) => s.op === 'USER') > steps.findIndex((s) => s.op === 'RUN' || s.op === 'COPY'), 'after the steps that need root')

  const container = await manifestContainer(t, ['-c', '1', '-a', '1', 'http://127.0.0.1:3000/'])
  const entrypoint = JSON.parse(only('ENTRYPOINT')[0].arg)
  t.same(entrypoint, container.command, 'ENTRYPOINT is the command the Job\'s pods run')
  t.ok(Object.keys(pkg.bin).includes(entrypoint[0]), `${entrypoint[0]} is one of the package's commands`)

  // The files npm would publish, and the two the install reads.
  const copied = only('COPY').flatMap((s) => s.arg.split(/\s+/).slice(0, -1)).map((p) => p.replace(/\/$/, ''))
  // Not dist/ (see the Dockerfile): the CLI runs lib/ in the image.
  const published = pkg.files.map((p) => p.replace(/\/$/, '')).filter((p) => p !== 'dist')
  t.same(copied.sort(), ['package.json', 'package-lock.json', ...published].sort(), 'COPY brings package.json "files" but dist/, package.json and the lockfile')
})

// Every directory from / to file can be entered by other users.
function othersReach (file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false
    if (dir === path.dirname(dir)) return true
  }
}

t.test('the Dockerfile\'s steps, run in a scratch folder, give a working `autocannon` for the Job', async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-image-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  fs.chmodSync(scratch, 0o755)
  const workdir = path.join(scratch, 'app')
  fs.mkdirSync(workdir)
  const workdirInImage = only('WORKDIR')[0].arg
  // The image's paths under WORKDIR are the scratch folder's.
  const here = (p) => p.replace(workdirInImage, workdir)
  // A shell of its own, not tap's variables; npm's settings and cache are
  // the user's (packages already fetched are not fetched again).
  const env = { npm_config_prefer_offline: 'true' }
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_(?!config_)|npm_config_call$|TAP|_TAPJS_|NODE_OPTIONS$|NODE_V8_COVERAGE$|INIT_CWD$)/i.test(key)) env[key] = value
  }

  for (const { op, arg } of steps) {
    if (op === 'COPY') {
      const parts = arg.split(/\s+/)
      const dest = path.resolve(workdir, here(parts.pop()))
      for (const src of parts) {
        const target = parts.length > 1 || arg.trim().endsWith('/') ? path.join(dest, path.basename(src)) : dest
        fs.cpSync(path.join(ROOT, src), src.endsWith('/') ? dest : target, { recursive: true })
      }
    } else if (op === 'ENV') {
      for (const [, key, value] of arg.matchAll(/(\w+)=(\S+)/g)) env[key] = here(value.replace('$PATH', env.PATH))
    } else if (op === 'RUN') {
      // Each command of the step but emptying npm's cache, which here is
      // the user's (in the image it only saves space).
      const command = arg.split(/\s*&&\s*/).filter((c) => !/^npm cache clean\b/.test(c)).join(' && ')
      const out = await exec('sh', ['-c', command], { cwd: workdir, env })
      t.equal(out.code, 0, `RUN ${command}\n${out.stderr}`)
      if (out.code !== 0) return
    }
  }
  const installed = fs.readdirSync(path.join(workdir, 'node_modules'))
  for (const dep of Object.keys(pkg.dependencies)) t.ok(installed.includes(dep.split('/')[0]), `${dep} installed`)
  for (const dep of ['tap', 'standard', 'autocannon-upstream']) t.notOk(installed.includes(dep), `no ${dep} (a dev dependency)`)
  const lock = require('../../package-lock.json')
  const yamlVersion = JSON.parse(fs.readFileSync(path.join(workdir, 'node_modules', 'yaml', 'package.json'), 'utf8')).version
  t.equal(yamlVersion, lock.packages['node_modules/yaml'].version, 'the version the lockfile pins')

  // The pod: the manifest's command and arguments, its index from the Job.
  const url = await httpServer(t)
  const startAt = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000).toISOString()
  const container = await manifestContainer(t, ['--startAt', startAt, '-a', '20', '-c', '2', url])
  const tmp = path.join(scratch, 'tmp')
  fs.mkdirSync(tmp, { mode: 0o1777 })
  fs.chmodSync(tmp, 0o1777)
  const podEnv = { PATH: env.PATH, NODE_ENV: env.NODE_ENV, TMPDIR: tmp, JOB_COMPLETION_INDEX: '0' }
  // As another user where the Node running this test can be run by one.
  const asOther = process.getuid && process.getuid() === 0 && othersReach(process.execPath)
  if (!asOther) t.comment(`run as this user: ${process.getuid && process.getuid() !== 0 ? 'not root' : `${process.execPath} is not reachable by other users`}`)
  // The PATH lookup of the command is the image's: the symlink the RUN step made.
  const command = path.join(workdir, 'node_modules', '.bin', container.command[0])
  t.ok(fs.existsSync(command), `${container.command[0]} is on the image's PATH`)
  const nodeDir = path.dirname(process.execPath)
  // tap adds its process hooks to NODE_OPTIONS of what a test starts, which
  // another user could not write to: /usr/bin/env takes them out again.
  const out = await exec('env', ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE', command, ...container.args], {
    env: { ...podEnv, PATH: `${env.PATH.split(path.delimiter).filter((d) => d.startsWith(workdir)).join(path.delimiter)}${path.delimiter}${nodeDir}${path.delimiter}/usr/bin:/bin` },
    ...(asOther ? { uid: 65534, gid: 65534 } : {})
  })
  t.equal(out.code, 0, out.stderr)
  const result = JSON.parse(out.stdout)
  t.equal(result.requests.total, 20, 'the shard ran its requests')
  t.equal(result.errors, 0)
  t.same({ index: result.shard.index, count: result.shard.count }, { index: 0, count: 1 }, 'its index from JOB_COMPLETION_INDEX')
})
