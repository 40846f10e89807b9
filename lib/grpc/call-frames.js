'use strict'

// How a gRPC call is encoded (the framing's encodingFor): as HTTP/2's
// requests are (lib/http2/request-frames.js, request-template.js), but
// without a content-length field, which neither grpc-js's clients nor
// ghz send and a grpc-js server hands its handler as metadata. A call
// without templates is encoded once; one with {{…}} in its metadata is
// HTTP/2's template writer's; one with a templated message
// (message-template.js) is filled, encoded and framed per call.

const { encodeH2Request } = require('../http2/request-frames')
const { InvalidOptionError } = require('../core/errors')
const { hasTemplate } = require('../client/templates')
const { STATIC } = require('../client/template-ops')
const { lazy } = require('../core/lazy')
const { isEnvelope, isPending, openEnvelope, compileText, CallWriter } = require('./message-template')

// Lazy: only a call with templates needs it.
const requestTemplate = lazy(() => require('../http2/request-template'))

const LENGTHLESS = Object.freeze({ statesLength: false })

function headHasTemplate (t) {
  return hasTemplate(t.path) || Object.keys(t.headers).some((k) => hasTemplate(t.headers[k]))
}

// A templated message's call: HTTP/2's writer for its header block (its
// own holes, or one static block), the message filled per call.
function messageWriter (t, base, scheme, name, conn) {
  const { type, gzip, text } = openEnvelope(t.body)
  const { compileH2, H2TemplateWriter } = requestTemplate()
  const head = { ...t, body: undefined }
  let writer = headHasTemplate(t) ? compileH2(head, base, scheme, name, conn, LENGTHLESS) : null
  if (writer === null) {
    const block = encodeH2Request({ ...head, host: base.host }, scheme, LENGTHLESS).block
    // One op: the block's bytes as they are.
    writer = new H2TemplateWriter({ ops: Uint8Array.of(STATIC), args: [block] }, null)
  }
  return new CallWriter(writer, compileText(text, conn), type, gzip)
}

function grpcEncoding (target) {
  const scheme = target.secure ? 'https' : 'http'
  return Object.freeze({
    encode (req) {
      if (isPending(req.body)) throw new InvalidOptionError('call', 'a call without --proto', 'is defined by the server\'s reflection, asked before the run, which did not happen here: give --proto FILE or --protoset FILE')
      // Only a request a hook made comes here with the envelope: its
      // message is filled by the template writer, which a hook bypasses.
      if (isEnvelope(req.body)) throw new InvalidOptionError('data', 'a message with {{…}} templates', 'is filled per call by the run, which setupRequest and idReplacement bypass: give the message without templates')
      return encodeH2Request(req, scheme, LENGTHLESS)
    },
    template (t, base, name, conn) {
      if (isPending(t.body)) return null
      if (isEnvelope(t.body)) return messageWriter(t, base, scheme, name, conn)
      if (!headHasTemplate(t)) return null
      return requestTemplate().compileH2(t, base, scheme, name, conn, LENGTHLESS)
    }
  })
}

module.exports = { grpcEncoding }
