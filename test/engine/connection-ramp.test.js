'use strict'

// --connectionStages as a count of connections from moment to moment:
// each stage ramps linearly from where the last ended (the first from 0),
// a 0 s stage is a step, the whole count rounded; nextChange() says when
// it changes next, so the ramp's timer wakes once per change; a thread's
// part is the whole count split by each share in turn, and the parts add
// up to the whole at every moment.

const t = require('tap')
const { createConnectionRamp } = require('../../lib/engine/connection-ramp')
const { share } = require('../../lib/core/share')

// Every change of the whole count from 0 on, as [ms rounded, count].
function changes (ramp) {
  const seen = []
  for (let at = 0; at !== Infinity; at = ramp.nextChange(at)) seen.push([Math.round(at), ramp.wholeAt(at)])
  return seen
}

t.test('unit: the ramp\'s counts, its changes, and the parts of a split', async (t) => {
  const ramp = createConnectionRamp([{ duration: 1, connections: 10 }, { duration: 1, connections: 10 }, { duration: 0, connections: 3 }, { duration: 1, connections: 0 }])
  t.same([0, 49, 50, 500, 999, 1000, 1500, 1999, 2000, 2500, 3000, 9000].map((ms) => ramp.wholeAt(ms)),
    [0, 0, 1, 5, 10, 10, 10, 10, 3, 2, 0, 0], 'from 0, rounded; a 0 s stage is a step')
  const changes = []
  for (let at = 0; at !== Infinity; at = ramp.nextChange(at)) changes.push([Math.round(at), ramp.wholeAt(at)])
  t.same(changes, [[0, 0], [50, 1], [150, 2], [250, 3], [350, 4], [450, 5], [550, 6], [650, 7], [750, 8], [850, 9], [950, 10], [2000, 3], [2167, 2], [2500, 1], [2833, 0]],
    'it wakes once per change, none on the flat stage')
  // Shards then workers: at every moment the parts add up to the whole.
  const stages = [{ duration: 2, connections: 37 }, { duration: 1, connections: 5 }]
  const whole = createConnectionRamp(stages)
  const parts = []
  for (let s = 0; s < 3; s++) for (let w = 0; w < 2; w++) parts.push(createConnectionRamp(stages, [[s, 3], [w, 2]]))
  for (let ms = 0; ms <= 3000; ms += 7) {
    const sum = parts.reduce((n, p) => n + p.at(ms), 0)
    if (sum !== whole.wholeAt(ms)) t.fail(`at ${ms} ms the parts add up to ${sum}, not ${whole.wholeAt(ms)}`)
  }
  t.equal(parts[0].at(2000), share(share(37, 3, 0), 2, 0))
})

t.test('at(): the count now, rounded; after the last stage, its count', async (t) => {
  const ramp = createConnectionRamp([{ duration: 2, connections: 4 }])
  t.same([0, 249, 250, 500, 1000, 1749, 1750, 2000, 60000].map((ms) => ramp.at(ms)), [0, 0, 1, 1, 2, 3, 4, 4, 4], 'half-way to the next count rounds up')
  const down = createConnectionRamp([{ duration: 0, connections: 4 }, { duration: 2, connections: 0 }])
  t.same([0, 250, 251, 1000, 1750, 1751, 2000, 5000].map((ms) => down.at(ms)), [4, 4, 3, 2, 1, 0, 0, 0], 'going down: a step first, then half-way rounds up too')
  const steps = createConnectionRamp([{ duration: 0, connections: 5 }, { duration: 1, connections: 5 }, { duration: 0, connections: 2 }, { duration: 1, connections: 2 }])
  t.same([0, 999, 1000, 1999, 2000].map((ms) => steps.at(ms)), [5, 5, 2, 2, 2], 'steps and flat stages')
  t.equal(createConnectionRamp([{ duration: 0.5, connections: 1000 }]).at(0.25 * 1000), 500, 'fractions of a second')
})

t.test('nextChange(): the first moment after now that the count changes, or Infinity', async (t) => {
  t.same(changes(createConnectionRamp([{ duration: 2, connections: 4 }])), [[0, 0], [250, 1], [750, 2], [1250, 3], [1750, 4]])
  t.same(changes(createConnectionRamp([{ duration: 0, connections: 4 }, { duration: 2, connections: 0 }])), [[0, 4], [250, 3], [750, 2], [1250, 1], [1750, 0]], 'going down')
  t.same(changes(createConnectionRamp([{ duration: 1, connections: 2 }, { duration: 3, connections: 2 }, { duration: 0, connections: 7 }, { duration: 1, connections: 7 }])),
    [[0, 0], [250, 1], [750, 2], [4000, 7]], 'a flat stage: nothing until the step after it')
  const ramp = createConnectionRamp([{ duration: 2, connections: 4 }])
  const next = ramp.nextChange(300)
  t.ok(next > 750 && next < 750.001, `from inside a count, its end (${next})`)
  t.equal(ramp.at(next), 2, 'where the count is the next one')
  t.ok(ramp.at(next - 0.001) === 1, 'and just before, the last one')
  t.equal(ramp.nextChange(1750.5), Infinity, 'past the last change: none')
  t.equal(ramp.nextChange(99999), Infinity)
  t.equal(createConnectionRamp([{ duration: 1, connections: 0 }]).nextChange(0), Infinity, 'a ramp that holds 0 never changes')
  const steps = createConnectionRamp([{ duration: 1, connections: 0 }, { duration: 0, connections: 3 }, { duration: 1, connections: 3 }])
  t.equal(steps.nextChange(0), 1000, 'a step: its moment, exactly')
  t.equal(steps.nextChange(1000), Infinity, 'none after it')
})

t.test('a long ramp wakes once per count, not once per tick', async (t) => {
  const ramp = createConnectionRamp([{ duration: 3600, connections: 1000 }])
  const seen = changes(ramp)
  t.equal(seen.length, 1001, 'one wake per count from 0 to 1000')
  t.ok(seen.every(([, count], i) => count === i), 'each count once, in turn')
  t.equal(seen[1][0], 1800, 'the first at half of 3.6 s')
})

t.test('shares: each split in turn, the parts adding up to the whole', async (t) => {
  const stages = [{ duration: 1, connections: 7 }]
  const halves = [0, 1].map((index) => createConnectionRamp(stages, [[index, 2]]))
  t.same([0, 100, 500, 1000].map((ms) => halves.map((h) => h.at(ms))), [[0, 0], [1, 0], [2, 2], [4, 3]], 'the first part takes the odd one')
  const thirds = [0, 1, 2].map((index) => createConnectionRamp([{ duration: 0, connections: 10 }], [[index, 3]]))
  t.same(thirds.map((p) => p.at(0)), [4, 3, 3])
  const nested = [0, 1].map((w) => createConnectionRamp([{ duration: 0, connections: 10 }], [[0, 3], [w, 2]]))
  t.same(nested.map((p) => p.at(0)), [2, 2], 'a shard\'s 4, over its two workers')
  t.same(createConnectionRamp([{ duration: 0, connections: 10 }], []).at(0), 10, 'no shares: the whole')
  // A part changes only when the whole does: the whole's changes are
  // enough for every thread's timer.
  const whole = createConnectionRamp([{ duration: 2, connections: 37 }, { duration: 1, connections: 5 }])
  const part = createConnectionRamp([{ duration: 2, connections: 37 }, { duration: 1, connections: 5 }], [[2, 3], [1, 2]])
  let missed = 0
  for (let ms = 0.5; ms <= 3000; ms += 0.5) {
    if (part.at(ms) !== part.at(ms - 0.5) && whole.wholeAt(ms) === whole.wholeAt(ms - 0.5)) missed++
  }
  t.equal(missed, 0, 'no change of a part between two changes of the whole')
})
