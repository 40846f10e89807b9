'use strict'

// Part `index` of `total` split over `parts` as evenly as whole numbers
// allow: the first total % parts parts get one more, so the parts add up
// to the total exactly (-a 101 over 2 workers is 51 + 50, not 50 + 50).
function share (total, parts, index) {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0)
}

module.exports = { share }
