'use strict'

// The standard normal's upper tail, for p-values of large-sample tests.

// erfc by the Chebyshev fit in Press et al., Numerical Recipes (2nd ed.,
// §6.2): relative error under 1.2e-7 everywhere, so tiny p-values keep
// their digits (the A&S 7.1.26 form is only good to 1.5e-7 absolute).
function erfc (x) {
  const z = Math.abs(x)
  const t = 1 / (1 + 0.5 * z)
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
    t * (-0.82215223 + t * 0.17087277))))))))
  const r = t * Math.exp(-z * z + poly)
  return x >= 0 ? r : 2 - r
}

// P(Z > z)
function normalSf (z) {
  return 0.5 * erfc(z / Math.SQRT2)
}

module.exports = { erfc, normalSf }
