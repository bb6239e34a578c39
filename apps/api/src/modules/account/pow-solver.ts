/**
 * The login page's solver of an ALTCHA v1 challenge (challenge.ts), as browser script text: find the
 * number n ≤ maxnumber with hex(SHA-256(salt + n)) = challenge, and answer the base64 payload the
 * server checks. SHA-256 is written out here rather than taken from crypto.subtle, which browsers
 * only offer on https or localhost — a LAN install over plain http must work too. It works in slices
 * of 20 ms so the page stays responsive. tests/api/sms-challenge.test.ts runs this very text.
 */
export const POW_SOLVER_JS = String.raw`
var POW = (function () {
  var K = [];
  (function () {
    var n = 2, found = 0;
    function frac(x) { return ((x - Math.floor(x)) * 4294967296) | 0; }
    while (found < 64) {
      var prime = true;
      for (var d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
      if (prime) { K[found++] = frac(Math.pow(n, 1 / 3)); }
      n++;
    }
  })();
  var H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  var W = new Int32Array(64);
  function sha256Hex(text) {
    var bytes = new TextEncoder().encode(text);
    var bitLen = bytes.length * 8;
    var total = ((bytes.length + 9 + 63) >> 6) << 6;
    var m = new Uint8Array(total);
    m.set(bytes);
    m[bytes.length] = 0x80;
    m[total - 4] = (bitLen >>> 24) & 255; m[total - 3] = (bitLen >>> 16) & 255;
    m[total - 2] = (bitLen >>> 8) & 255; m[total - 1] = bitLen & 255;
    var h = H0.slice();
    for (var off = 0; off < total; off += 64) {
      for (var i = 0; i < 16; i++) {
        var j = off + i * 4;
        W[i] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
      }
      for (i = 16; i < 64; i++) {
        var a15 = W[i - 15], a2 = W[i - 2];
        var s0 = ((a15 >>> 7) | (a15 << 25)) ^ ((a15 >>> 18) | (a15 << 14)) ^ (a15 >>> 3);
        var s1 = ((a2 >>> 17) | (a2 << 15)) ^ ((a2 >>> 19) | (a2 << 13)) ^ (a2 >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (i = 0; i < 64; i++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    var out = "";
    for (i = 0; i < 8; i++) out += ("00000000" + (h[i] >>> 0).toString(16)).slice(-8);
    return out;
  }
  /** Calls done(payload) when solved, done(null) when no number up to maxnumber fits. */
  function solve(ch, done) {
    var n = 0;
    function slice() {
      var until = Date.now() + 20;
      while (n <= ch.maxnumber) {
        if (sha256Hex(ch.salt + n) === ch.challenge) {
          var payload = { algorithm: ch.algorithm, challenge: ch.challenge, number: n, salt: ch.salt, signature: ch.signature };
          return done(btoa(JSON.stringify(payload)));
        }
        n++;
        if ((n & 255) === 0 && Date.now() > until) return setTimeout(slice, 0);
      }
      done(null);
    }
    slice();
  }
  return { sha256Hex: sha256Hex, solve: solve };
})();
`;
