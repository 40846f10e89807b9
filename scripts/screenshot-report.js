'use strict'

// Makes docs/images/report.png, the picture of the HTML report the README
// shows: a short real run of the CLI at a fixed rate against a server on
// 127.0.0.1 (its answers take 1 to 3 ms, one in fifty 20 ms, so the
// charts have a tail to draw), written with --html, opened in Chromium
// (puppeteer-core) and taken 1280 px wide.
//
//   node scripts/screenshot-report.js [--out docs/images/report.png] [--chromium /usr/bin/chromium]
//
// Chromium: Debian's (apt-get install chromium), or CHROMIUM_PATH.

const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const { execFile } = require('child_process')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'autocannon.js')
const WIDTH = 1280
// The top of the page: the run, the latency by percentile and the charts
// over time. The rest (tables) is text the README need not picture.
const HEIGHT = 1600

function argument (name, fallback) {
  const at = process.argv.indexOf(name)
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback
}

function startServer () {
  let n = 0
  const server = http.createServer((req, res) => {
    const delay = ++n % 50 === 0 ? 20 : 1 + (n % 3)
    setTimeout(() => res.end('hello world\n'), delay)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

function run (args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`autocannon ${args.join(' ')} failed: ${stderr || err.message}`))
      else resolve(stderr)
    })
  })
}

async function main () {
  const out = path.resolve(argument('--out', path.join(ROOT, 'docs', 'images', 'report.png')))
  const chromium = argument('--chromium', process.env.CHROMIUM_PATH || '/usr/bin/chromium')
  if (!fs.existsSync(chromium)) throw new Error(`no Chromium at ${chromium} (apt-get install chromium, or --chromium PATH)`)

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cannonade-screenshot-'))
  const server = await startServer()
  try {
    const url = `http://127.0.0.1:${server.address().port}/`
    const html = path.join(dir, 'report.html')
    await run(['-c', '20', '-R', '2000', '-d', '10', '-T', 'hello server, 2,000 req/s', '--html', html, url])

    const puppeteer = require('puppeteer-core')
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      userDataDir: path.join(dir, 'profile'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run'],
      timeout: 60000
    })
    try {
      const page = await browser.newPage()
      await page.setViewport({ width: WIDTH, height: HEIGHT })
      await page.goto(`file://${html}`, { waitUntil: 'load' })
      // The charts are drawn by the page's own script once it has loaded.
      await page.waitForSelector('canvas')
      fs.mkdirSync(path.dirname(out), { recursive: true })
      await page.screenshot({ path: out, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
    } finally {
      await browser.close()
    }
    console.log(`${path.relative(process.cwd(), out)}: ${fs.statSync(out).size} bytes`)
  } finally {
    server.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err.message)
  process.exitCode = 1
})
