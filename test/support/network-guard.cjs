// The test run's network guard: loaded into every Node process of `npm test` (jest, its workers
// and every API, worker or CLI a test spawns) with NODE_OPTIONS=--require, so a test can only
// talk to this machine. A TCP connection to an address outside 127.0.0.0/8 and ::1 is refused
// before it is opened (the socket fails with ERR_NETWORK_GUARD_REFUSED), and a DNS lookup of a
// name that is not this machine's is answered locally: reserved names (RFC 6761 and 2606:
// *.invalid, *.test, *.example, example.com/net/org) with ENOTFOUND, any other name refused,
// because asking the machine's resolver is itself traffic off the machine.
//
// Each process writes what it saw to NETWORK_GUARD_DIR/<pid>.json: connections by address class
// at exit, every refusal at once (a process killed outright keeps its refusals). The run prints
// the sum and fails when anything was refused (tools' test-run reads it).
//
// Plain CommonJS, because --require runs before any TypeScript loader.
'use strict';

const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const INSTALLED = Symbol.for('candidate-sourcing.network-guard');
const RESERVED_SUFFIXES = ['.invalid', '.test', '.example', '.example.com', '.example.net', '.example.org'];
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/** 'loopback' for 127.0.0.0/8, ::1 and ::ffff:127.x; otherwise what kind of address it is. */
function addressClass(address) {
  const a = String(address)
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/.exec(a);
  if (v4 && net.isIPv4(a.replace(/^::ffff:/, ''))) {
    const [x, y] = [Number(v4[1]), Number(v4[2])];
    if (x === 127) return 'loopback';
    if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return 'private';
    if (x === 169 && y === 254) return 'link-local';
    if (x === 0) return 'unspecified';
    return 'public';
  }
  if (net.isIPv6(a)) {
    if (a === '::1') return 'loopback';
    if (a === '::') return 'unspecified';
    if (/^f[cd]/.test(a)) return 'private';
    if (/^fe[89ab]/.test(a)) return 'link-local';
    return 'public';
  }
  return 'not an address';
}

const isLocalName = (host) => {
  const h = String(host).toLowerCase().replace(/\.$/, '');
  return LOCAL_NAMES.has(h) || h.endsWith('.localhost');
};
const isReservedName = (host) => {
  const h = String(host).toLowerCase().replace(/\.$/, '');
  return RESERVED_SUFFIXES.some((s) => h.endsWith(s) || h === s.slice(1));
};

function install() {
  if (net.Socket.prototype[INSTALLED]) return;
  const dir = process.env.NETWORK_GUARD_DIR;
  const record = { pid: process.pid, argv: process.argv.slice(1, 3).map((a) => path.basename(a)), connections: {}, refused: [] };
  const file = dir ? path.join(dir, `${process.pid}.json`) : null;
  const save = () => {
    if (!file) return;
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(record));
    } catch {
      // The record is best effort; a failed write must not change the test's outcome.
    }
  };
  // Counts are written within a second of changing (a test runner may end its workers with a
  // signal, when no exit handler runs), and once more at exit.
  let pending = null;
  const count = (cls) => {
    record.connections[cls] = (record.connections[cls] ?? 0) + 1;
    if (!pending) {
      pending = setTimeout(() => {
        pending = null;
        save();
      }, 1000);
      pending.unref();
    }
  };
  const refusal = (what, target, cls) => {
    record.refused.push({ what, target: String(target), class: cls, at: new Date().toISOString() });
    save();
    const err = new Error(`network guard: ${what} ${target} (${cls}) refused; tests may only reach this machine`);
    err.code = 'ERR_NETWORK_GUARD_REFUSED';
    return err;
  };
  process.on('exit', save);

  // DNS: names of this machine go to the system resolver (it answers from /etc/hosts); others never leave.
  const guardedLookup = (original) =>
    function lookup(hostname, options, callback) {
      const cb = typeof options === 'function' ? options : callback;
      if (net.isIP(hostname) || isLocalName(hostname)) return original.apply(this, arguments);
      const err = isReservedName(hostname)
        ? Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname })
        : refusal('DNS lookup of', hostname, 'name off this machine');
      process.nextTick(cb, err);
      return {};
    };
  const originalLookup = dns.lookup;
  dns.lookup = guardedLookup(originalLookup);
  const originalPromiseLookup = dns.promises.lookup;
  dns.promises.lookup = function lookup(hostname, options) {
    if (net.isIP(hostname) || isLocalName(hostname)) return originalPromiseLookup.call(this, hostname, options);
    return new Promise((resolve, reject) => guardedLookup(originalLookup)(hostname, options ?? {}, (err) => reject(err)));
  };

  // TCP: a literal address is checked before connecting; a name, on every address its lookup answers.
  const originalConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connect(...args) {
    // net.connect() and tls.connect() pass arguments already normalised, as a one-element array.
    const normalized = args.length === 1 && Array.isArray(args[0]) ? args[0] : net._normalizeArgs(args);
    const options = normalized[0];
    if (options.path == null) {
      const host = options.host ?? 'localhost';
      if (net.isIP(host)) {
        const cls = addressClass(host);
        if (cls !== 'loopback') {
          const err = refusal('connection to', `${host}:${options.port}`, cls);
          process.nextTick(() => this.destroy(err));
          return this;
        }
        count(cls);
      } else {
        const lookup = options.lookup ?? dns.lookup;
        options.lookup = (hostname, lookupOptions, callback) =>
          lookup(hostname, lookupOptions, (err, address, family) => {
            if (err) return callback(err, address, family);
            const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
            const outside = all.find((a) => addressClass(a) !== 'loopback');
            if (outside) return callback(refusal('connection to', `${hostname} (${outside}):${options.port}`, addressClass(outside)));
            count('loopback');
            callback(null, address, family);
          });
      }
    } else {
      count('unix socket');
    }
    return originalConnect.call(this, normalized);
  };
  net.Socket.prototype[INSTALLED] = { addressClass, record };
}

install();
module.exports = { addressClass };
