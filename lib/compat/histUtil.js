'use strict'

// require('autocannon/lib/histUtil'): autocannon's histograms for a raw
// result, as its aggregateResult reads them (lib/aggregateResult.js takes
// them as its third argument): getHistograms() builds the three with
// autocannon's layouts (latencies in ms), encodeHist and decodeHist write
// and read them as compressed base64 (a raw result's `latencies`,
// `requests` and `throughput`, ours included), histAsObj, addPercentiles
// and percentiles are hdr-histogram-percentiles-obj's.

const hdr = require('hdr-histogram-js')
const percentilesObj = require('hdr-histogram-percentiles-obj')

hdr.initWebAssemblySync()

const getHistograms = ({
  latencies = hdr.build({
    useWebAssembly: true,
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 10000,
    numberOfSignificantValueDigits: 5
  }),
  requests = hdr.build({
    useWebAssembly: true,
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 1000000,
    numberOfSignificantValueDigits: 3
  }),
  throughput = hdr.build({
    useWebAssembly: true,
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 100000000000,
    numberOfSignificantValueDigits: 3
  })
} = {}) => ({ latencies, requests, throughput })

// null for a histogram made to stand for another (autocannon's __custom).
function encodeHist (h) {
  if (h.__custom) return null
  return hdr.encodeIntoCompressedBase64(h)
}

function decodeHist (str) {
  if (!str) return null
  return hdr.decodeFromCompressedBase64(str)
}

module.exports = {
  getHistograms,
  encodeHist,
  decodeHist,
  histAsObj: percentilesObj.histAsObj,
  addPercentiles: percentilesObj.addPercentiles,
  percentiles: percentilesObj.percentiles
}
