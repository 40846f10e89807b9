'use strict'

// The @grpc/grpc-js client loop the gRPC bench compares with:
// `connections` channels, each keeping `streams` unary calls of
// bench.Echo/Say in flight for `duration` seconds. Prints one JSON line in
// the shape of our -j result (requests.total, errors, duration).
//
//   node bench/grpc-node-client.js HOST:PORT CONNECTIONS STREAMS DURATION

const path = require('path')
const grpc = require('@grpc/grpc-js')
const loader = require('@grpc/proto-loader')

const [address, connections, streams, duration] = process.argv.slice(2)
const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures', 'grpc')
const def = loader.loadSync(path.join(FIXTURES, 'echo.proto'), { includeDirs: [FIXTURES], keepCase: true })
const Echo = grpc.loadPackageDefinition(def).bench.Echo
let total = 0
let errors = 0
let stopping = false
const started = process.hrtime.bigint()
const message = { name: 'bench' }

function call (client) {
  if (stopping) return
  client.Say(message, (err) => {
    if (err) errors++
    else total++
    call(client)
  })
}

const clients = []
for (let c = 0; c < Number(connections); c++) {
  // Its own channel each: grpc-js shares a channel between clients of the
  // same address and options unless told apart.
  const client = new Echo(address, grpc.credentials.createInsecure(), { 'grpc.bench_channel': c })
  clients.push(client)
  for (let s = 0; s < Number(streams); s++) call(client)
}

setTimeout(() => {
  stopping = true
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  process.stdout.write(JSON.stringify({ requests: { total }, errors, duration: seconds }) + '\n')
  for (const client of clients) client.close()
  process.exit(0)
}, Number(duration) * 1000)
