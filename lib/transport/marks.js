'use strict'

// When the name lookup ended and when the connect was handed to the
// kernel (connectionAttempt: a tick after net.connect, once the name is
// an address; again for each address tried), marked on the connection
// (connection.js, phases()): listeners per socket, nothing per request.
function marks (socket, connection) {
  socket.once('lookup', () => connection.mark('lookup'))
  socket.on('connectionAttempt', () => connection.mark('attempt'))
}

module.exports = { marks }
