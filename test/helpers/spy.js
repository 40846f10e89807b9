'use strict'

// A proxy of `target` that notes the name of every member read (`name`)
// or written (`name=`) through it, into the Set `used`. Methods come back
// bound to the target itself: what a method then reads of its own object
// is not taken for a use across the seam.
function spy (target, used) {
  return new Proxy(target, {
    get (obj, prop) {
      if (typeof prop === 'string') used.add(prop)
      const value = Reflect.get(obj, prop, obj)
      return typeof value === 'function' ? value.bind(obj) : value
    },
    set (obj, prop, value) {
      if (typeof prop === 'string') used.add(`${prop}=`)
      return Reflect.set(obj, prop, value, obj)
    }
  })
}

module.exports = { spy }
