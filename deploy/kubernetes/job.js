#!/usr/bin/env node
'use strict'

// The manifest generator from a checkout, without installing the package:
//   node deploy/kubernetes/job.js --shards 4 -c 100 -d 60 http://my-service:3000/ > job.yaml
// The same as `autocannon kube …` (lib/cli/kube.js).

require('../../lib/cli/main').main(['kube', ...process.argv.slice(2)])
