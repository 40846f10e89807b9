'use strict'

// Preloaded (node --require) into the command that `--on-port` starts: the
// first TCP port a server of this process listens on is sent to the
// autocannon that started it, over the Unix socket named in the
// environment. It travels through NODE_OPTIONS, so a wrapper such as
// `npm start` passes it on to the real server.

const net = require('net')

const socketPath = process.env.AUTOCANNON_DETECT_PORT_SOCKET
let reported = false

function report () {
  const address = this.address()
  // Pipes and Unix sockets are not what autocannon can be pointed at.
  if (reported || !address || typeof address !== 'object') return
  reported = true
  const channel = net.connect(socketPath)
  channel.on('error', () => {})
  channel.end(JSON.stringify({ port: address.port, address: address.address, pid: process.pid }) + '\n')
  // Reporting must never keep the server's process alive.
  channel.unref()
}

if (socketPath) {
  const listen = net.Server.prototype.listen
  net.Server.prototype.listen = function (...args) {
    this.once('listening', report)
    return listen.apply(this, args)
  }
}
