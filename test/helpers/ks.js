'use strict'

// The one-sample Kolmogorov–Smirnov test against an exponential law: D is
// the largest distance between the samples' empirical CDF and 1 − e^(−x/mean).
// Critical values from the asymptotic distribution (n > 35):
// c(α)·√(1/n), c = √(−ln(α/2) / 2).
function ksExponential (samples, mean) {
  const xs = Float64Array.from(samples).sort()
  const n = xs.length
  let d = 0
  for (let i = 0; i < n; i++) {
    const f = 1 - Math.exp(-xs[i] / mean)
    d = Math.max(d, (i + 1) / n - f, f - i / n)
  }
  return d
}

function ksCritical (n, alpha) {
  return Math.sqrt(-Math.log(alpha / 2) / 2) / Math.sqrt(n)
}

module.exports = { ksExponential, ksCritical }
