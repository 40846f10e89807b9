'use strict'

// require('autocannon/lib/httpMethods'): the methods autocannon sends (RFC
// 7231's and PATCH). This package sends any method that is an HTTP token.

module.exports = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']
