'use strict'

// Credentials never reach output: a URL's user information is masked in
// anything shown (messages, results, headers of the printed run). A user
// name alone is masked too, since it is often a token (https://TOKEN@host).

// scheme://userinfo@ , up to the last '@' before the first '/', '?', '#',
// whitespace or quote (a password may hold a raw '@'; URL parsers also
// split at the last one), so only the authority part of a URL is touched.
const USERINFO = /([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^\s/?#"'`]+)@/g

function maskUserinfo (match, scheme, userinfo) {
  const colon = userinfo.indexOf(':')
  // user:*** keeps who it is; a lone name may itself be the secret.
  return colon === -1 ? `${scheme}***@` : `${scheme}${userinfo.slice(0, colon)}:***@`
}

function maskSecrets (text) {
  if (typeof text !== 'string' || text.indexOf('@') === -1) return text
  return text.replace(USERINFO, maskUserinfo)
}

module.exports = { maskSecrets }
