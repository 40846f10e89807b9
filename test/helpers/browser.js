'use strict'

// The one Chromium the browser tests drive (Debian's `chromium`, through
// puppeteer-core): where it is looked for, and how it is started.

const fs = require('fs')

// CHROMIUM_PATH, when set, is the only browser tried.
function findChromium () {
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser']
  return { found: candidates.find((p) => fs.existsSync(p)), candidates }
}

// The skip's reason when findChromium found none: where it looked, and
// what to do.
function notFound (candidates) {
  return `chromium not found: looked for ${candidates.join(', ')} (apt-get install chromium, or set CHROMIUM_PATH)`
}

// Headless, closed when `t` ends. puppeteer-core is required here, not at
// the top, so a machine without Chromium skips before loading it.
async function launchChromium (t, executablePath) {
  const puppeteer = require('puppeteer-core')
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    // Root in a container has no user namespaces for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
    timeout: 60000
  })
  t.teardown(() => browser.close())
  return browser
}

module.exports = { findChromium, notFound, launchChromium }
