'use strict'

// require('autocannon/lib/httpRequestBuilder'): autocannon's builder of a
// request's bytes. Refused as it is required (internal.js).

require('./internal').refuse('httpRequestBuilder', 'autocannon\'s builder of a request\'s bytes', 'requests are built inside the run; shape them with the method, headers, body and requests options (requests[i].setupRequest for one made per request)')
