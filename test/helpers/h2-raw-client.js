'use strict'

// A bare HTTP/2 client made of the codec alone (lib/http2: frames, HPACK),
// over a net or tls socket: what the interoperability tests drive against
// real servers. It records what the server sent, frame by frame as the
// parser reports it, acknowledges SETTINGS and PING, and gives back each
// stream's status, fields, body and trailers.

const net = require('net')
const tls = require('tls')
const {
  FrameParser, CLIENT_PREFACE, encodeSettings, encodeHeaders, encodeData, encodePing, encodeWindowUpdate, encodeGoaway
} = require('../../lib/http2/frames')
const { Decoder, encodeRequestHeaders, encodeTableSizeUpdate } = require('../../lib/http2/hpack')

const pairs = (flat) => {
  const out = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]])
  return out
}

class RawH2Client {
  // settings: what we advertise (enablePush 0 always).
  constructor (socket, settings = {}) {
    this.socket = socket
    this.settings = { enablePush: 0, ...settings }
    this.maxFrameSize = this.settings.maxFrameSize || 16384
    this.decoder = new Decoder(this.settings.headerTableSize === undefined ? 4096 : this.settings.headerTableSize)
    this.parser = new FrameParser(this, { maxFrameSize: this.maxFrameSize, maxHeaderBlockSize: 1 << 20 })
    this.nextStreamId = 1
    this.streams = new Map()
    // What the server sent, in order: one entry per call of the parser.
    this.log = []
    this.serverSettings = null
    this.error = null
    this.goaway = null
    this.closed = false
    this.waiters = []
    socket.on('data', (buf) => this.parser.execute(buf))
    socket.on('error', (err) => {
      this.error = this.error || err
      this.wake()
    })
    socket.on('close', () => {
      this.closed = true
      for (const stream of this.streams.values()) if (!stream.done) stream.reject(new Error('closed with the stream open'))
      this.wake()
    })
    socket.write(Buffer.concat([CLIENT_PREFACE, encodeSettings(this.settings)]))
  }

  static connect ({ port, host = '127.0.0.1', secure, ...tlsOptions }, settings) {
    return new Promise((resolve, reject) => {
      const socket = secure
        ? tls.connect({ port, host, ALPNProtocols: ['h2'], ...tlsOptions })
        : net.connect({ port, host })
      socket.once('error', reject)
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        socket.off('error', reject)
        resolve(new RawH2Client(socket, settings))
      })
    })
  }

  // Resolves once `test()` holds, re-checked after each thing that happens.
  until (test, what, ms = 5000) {
    if (test()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)
      this.waiters.push(() => {
        if (!test()) return false
        clearTimeout(timer)
        resolve()
        return true
      })
    })
  }

  wake () {
    this.waiters = this.waiters.filter((check) => !check())
  }

  // shape: as encodeRequestHeaders takes it; body: a Buffer or string;
  // prefix: octets before the block (a table size update).
  request (shape, { body, prefix } = {}) {
    const streamId = this.nextStreamId
    this.nextStreamId += 2
    const data = body === undefined ? null : Buffer.from(body)
    let block = encodeRequestHeaders({ ...shape, contentLength: data ? data.length : undefined })
    if (prefix) block = Buffer.concat([prefix, block])
    const stream = { streamId, status: 0, headers: null, trailers: null, chunks: [], blocks: [], done: false }
    const promise = new Promise((resolve, reject) => {
      stream.resolve = resolve
      stream.reject = reject
    })
    this.streams.set(streamId, stream)
    const frames = [encodeHeaders(streamId, block, data === null, this.peerMaxFrameSize())]
    if (data !== null) frames.push(encodeData(streamId, data, true, this.peerMaxFrameSize()))
    this.socket.write(Buffer.concat(frames))
    return promise
  }

  peerMaxFrameSize () {
    return (this.serverSettings && this.serverSettings.maxFrameSize) || 16384
  }

  close () {
    this.socket.end(encodeGoaway(0, 0))
  }

  finish (stream) {
    stream.done = true
    stream.body = Buffer.concat(stream.chunks)
    stream.resolve(stream)
  }

  // --- the parser's handler ---

  onSettings (ack, settings) {
    this.log.push({ type: 'settings', ack, settings })
    if (!ack) {
      this.serverSettings = { ...this.serverSettings, ...settings }
      this.socket.write(encodeSettings({}, true))
    }
    this.wake()
  }

  onHeaders (streamId, buf, start, end, endStream) {
    const status = this.decoder.decode(buf, start, end, true)
    const fields = pairs(this.decoder.headers)
    this.log.push({ type: 'headers', streamId, length: end - start, endStream })
    const stream = this.streams.get(streamId)
    stream.blocks.push(end - start)
    if (stream.headers === null) {
      stream.status = status
      stream.headers = fields
    } else stream.trailers = fields
    if (endStream) this.finish(stream)
    this.wake()
  }

  onData (streamId, buf, start, end, endStream, flow) {
    this.log.push({ type: 'data', streamId, length: end - start, flow, endStream })
    const stream = this.streams.get(streamId)
    stream.chunks.push(Buffer.from(buf.subarray(start, end)))
    // Give the window back at once: these tests are about the codec.
    if (flow > 0) this.socket.write(Buffer.concat([encodeWindowUpdate(0, flow), encodeWindowUpdate(streamId, flow)]))
    if (endStream) this.finish(stream)
    this.wake()
  }

  onPing (ack, opaque) {
    this.log.push({ type: 'ping', ack })
    if (!ack) this.socket.write(encodePing(Buffer.from(opaque), true))
    this.wake()
  }

  onGoaway (lastStreamId, errorCode, debug) {
    this.goaway = { lastStreamId, errorCode, debug: debug.toString() }
    this.log.push({ type: 'goaway', ...this.goaway })
    this.wake()
  }

  onRstStream (streamId, errorCode) {
    this.log.push({ type: 'rst', streamId, errorCode })
    const stream = this.streams.get(streamId)
    if (stream && !stream.done) stream.reject(Object.assign(new Error(`stream ${streamId} reset with ${errorCode}`), { errorCode }))
    this.wake()
  }

  onWindowUpdate (streamId, increment) {
    this.log.push({ type: 'window', streamId, increment })
  }

  onStreamError (err) {
    this.log.push({ type: 'streamError', code: err.code })
    const stream = this.streams.get(err.streamId)
    if (stream && !stream.done) stream.reject(err)
  }

  onError (err) {
    this.error = err
    this.log.push({ type: 'error', code: err.code, message: err.message })
    for (const stream of this.streams.values()) if (!stream.done) stream.reject(err)
    this.socket.destroy()
    this.wake()
  }
}

// A field's values in a stream's list.
function field (list, name) {
  return list.filter(([n]) => n === name).map(([, v]) => v)
}

module.exports = { RawH2Client, field, encodeTableSizeUpdate }
