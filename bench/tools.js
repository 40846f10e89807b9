'use strict'

// The generators compared, each as the command line its users would type,
// with the same connections, duration and pipelining, and a parser that
// reads completed responses and errors back from what it prints.

const path = require('path')
const { which } = require('./targets')

const ROOT = path.join(__dirname, '..')

function lastJsonLine (stdout) {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'))
  if (!line) throw new Error(`no JSON result in output: ${stdout.slice(0, 200)}`)
  return JSON.parse(line)
}

function fromAutocannonJson (stdout) {
  const r = lastJsonLine(stdout)
  return { completed: r.requests.total, errors: r.errors, non2xx: r.non2xx, duration: r.duration, latencyP99: r.latency.p99 }
}

// autocannon-style flags; `-j` so the result comes back whole. reconnect:
// a new connection for every request (-D 1), the handshake's cost.
function autocannonArgs ({ url, connections, duration, pipelining, amount, workers, http2, reconnect }) {
  const args = ['-j', '-c', String(connections)]
  if (http2) args.push('--http2')
  if (reconnect) args.push('-D', '1')
  if (amount) args.push('-a', String(amount))
  else args.push('-d', String(duration))
  if (pipelining > 1) args.push('-p', String(pipelining))
  if (workers) args.push('-w', String(workers))
  args.push(url)
  return args
}

// h2load's summary: "finished in 10.00s, 63512.30 req/s, …" and
// "requests: N total, N started, N done, N succeeded, N failed, N errored, N timeout".
function parseH2load (stdout) {
  const finished = /finished in ([\d.]+)(m?s)/.exec(stdout)
  const requests = /requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(stdout)
  if (!finished || !requests) throw new Error(`cannot read h2load output: ${stdout.slice(0, 200)}`)
  return {
    completed: Number(requests[1]),
    errors: Number(requests[2]) + Number(requests[3]) + Number(requests[4]),
    non2xx: 0,
    duration: Number(finished[1]) / (finished[2] === 'ms' ? 1000 : 1)
  }
}

function upstreamBin () {
  try {
    const pkg = require.resolve('autocannon-upstream/package.json', { paths: [ROOT] })
    return path.join(path.dirname(pkg), require(pkg).bin.autocannon)
  } catch {
    return null
  }
}

function parseWrk (stdout) {
  const done = /(\d+) requests in ([\d.]+)(m?s)/.exec(stdout)
  if (!done) throw new Error(`cannot read wrk output: ${stdout.slice(0, 200)}`)
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)
  const seconds = Number(done[2]) / (done[3] === 'ms' ? 1000 : 1)
  return {
    completed: Number(done[1]),
    errors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    duration: seconds
  }
}

// baseline: another checkout of this repo (a commit before a change), run
// beside ours in the same rounds: a change's cost measured on the same
// machine at the same moment, which figures from two runs are not.
function tools ({ baseline } = {}) {
  const list = [{
    name: 'ours',
    label: 'autocannon (this repo)',
    command: process.execPath,
    args: (o) => [path.join(ROOT, 'bin', 'autocannon.js'), ...autocannonArgs(o)],
    parse: fromAutocannonJson,
    supports: () => true
  }]
  if (baseline) {
    list.push({
      name: 'baseline',
      label: `autocannon at ${baseline}`,
      command: process.execPath,
      args: (o) => [path.join(baseline, 'bin', 'autocannon.js'), ...autocannonArgs(o)],
      parse: fromAutocannonJson,
      supports: () => true
    })
  }
  const upstream = upstreamBin()
  if (upstream) {
    list.push({
      name: 'autocannon',
      label: `autocannon ${require('autocannon-upstream/package.json').version} (npm)`,
      command: process.execPath,
      args: (o) => [upstream, ...autocannonArgs(o)],
      parse: fromAutocannonJson,
      supports: (o) => !o.workers && !o.http2
    })
  }
  const wrk = which('wrk')
  if (wrk) {
    list.push({
      name: 'wrk',
      label: 'wrk',
      command: wrk,
      args: ({ url, connections, duration, pipelining, reconnect }) => {
        const args = ['-t1', `-c${connections}`, `-d${duration}s`]
        // wrk reconnects after a response that says Connection: close.
        if (reconnect) args.push('-H', 'Connection: close')
        if (pipelining > 1) args.push('-s', path.join(__dirname, 'wrk-pipeline.lua'))
        args.push(url)
        if (pipelining > 1) args.push('--', String(pipelining))
        return args
      },
      parse: parseWrk,
      // wrk has no request count and one thread here, to match one core.
      supports: (o) => !o.amount && !o.workers && !o.http2
    })
  }
  const h2load = which('h2load')
  if (h2load) {
    list.push({
      name: 'h2load',
      label: 'h2load',
      command: h2load,
      // -m: streams per connection, as our -p over HTTP/2; one thread.
      args: ({ url, connections, duration, pipelining }) => ['-t', '1', '-c', String(connections), '-m', String(pipelining), '-D', String(duration), url],
      parse: parseH2load,
      supports: (o) => !!o.http2 && !o.amount && !o.workers && !o.reconnect
    })
    // The same tool over HTTP/1.1: -m is then the requests pipelined on a
    // connection, kept in flight as each is answered (autocannon's shape;
    // wrk's pipeline script writes the next batch once all are answered).
    list.push({
      name: 'h2load --h1',
      label: 'h2load --h1',
      command: h2load,
      args: ({ url, connections, duration, pipelining }) => ['--h1', '-t', '1', '-c', String(connections), '-m', String(pipelining || 1), '-D', String(duration), url],
      parse: parseH2load,
      supports: (o) => !o.http2 && !o.amount && !o.workers && !o.reconnect
    })
  }
  // HTTP/1.1's floor for a generator in Node.js: bare sockets, nothing
  // parsed or recorded (bench/net-floor-client.js). Not a peer: where our
  // cost is near it, the rest is Node's and the kernel's.
  // Over TLS the same client on node:tls sockets: Node's floor for HTTPS.
  const floor = (secure) => ({
    name: secure ? 'node:tls' : 'node:net',
    label: `bare node:${secure ? 'tls' : 'net'} sockets, counting bytes (bench/net-floor-client.js)`,
    command: process.execPath,
    args: ({ url, connections, duration, pipelining, reconnect }) => [path.join(__dirname, 'net-floor-client.js'), url, String(connections), String(pipelining || 1), String(duration), ...(reconnect ? ['reconnect'] : [])],
    parse: fromAutocannonJson,
    supports: (o) => !o.http2 && !o.amount && !o.workers && !(o.reconnect && o.pipelining > 1) && o.url.startsWith('https:') === secure
  })
  list.push(floor(false), floor(true))
  list.push({
    name: 'node:http2',
    label: 'a node:http2 client loop (bench/h2-node-client.js)',
    command: process.execPath,
    args: ({ url, connections, duration, pipelining }) => [path.join(__dirname, 'h2-node-client.js'), url, String(connections), String(pipelining), String(duration)],
    parse: fromAutocannonJson,
    supports: (o) => !!o.http2 && !o.amount && !o.workers && !o.reconnect
  })
  return list
}

module.exports = { tools, parseWrk, parseH2load, autocannonArgs }
