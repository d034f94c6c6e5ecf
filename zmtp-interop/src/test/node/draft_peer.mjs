// A libzmq peer for ThreadSafeInteropIT with the draft socket types (CLIENT, SERVER, RADIO, DISH, SCATTER,
// GATHER, PEER, CHANNEL), through npm's zeromq (zeromq.js 6.8.0, libzmq 4.3.5 built with drafts).
//
// Usage: node draft_peer.mjs NODE_DIR [LIFETIME_SECONDS]
//   NODE_DIR: where setup-node.sh installed zeromq (NODE_DIR/node_modules/zeromq); LIFETIME (default 60): the
//   process exits after that, whatever it is doing, so a test that dies leaves nothing running.
//
// Reads one command per line on stdin and answers each, in order, with one line on stdout: 'OK ...', 'MSG ...',
// 'NONE' or 'ERR <code> <message>'. Message bodies are single tokens (no spaces); every socket is single-part.
// The same protocol is spoken by JeroMQ's implementation in DraftPeer.java.
//
//   version                      OK <libzmq version> zeromq.js <version> draft=<true|false>
//   new NAME TYPE                a socket of TYPE (CLIENT SERVER RADIO DISH SCATTER GATHER PEER CHANNEL, or a classic
//                                type such as DEALER for the socket-type refusals); SNDTIMEO 5 s, LINGER 1 s
//   bind NAME ENDPOINT           OK <endpoint bound>
//   connect NAME ENDPOINT        OK
//   connectpeer NAME ENDPOINT    OK <routing id>: not in zeromq.js 6.8.0 (ERR ENOTSUP), see below
//   join NAME GROUP / leave NAME GROUP
//   send NAME BODY [rid=N] [group=G]   OK, or ERR (e.g. EHOSTUNREACH, EAGAIN after 5 s)
//   sendn NAME COUNT PREFIX      sends PREFIX-0 .. PREFIX-<COUNT-1>; OK sent=COUNT
//   recv NAME MILLIS             MSG BODY [rid=N] [group=G], or NONE when nothing came within MILLIS
//   echo NAME COUNT MILLIS       receives COUNT messages and sends each body back (to its routing id on a SERVER or
//                                PEER); OK n=COUNT rids=<distinct ids in order of arrival>
//   drain NAME IDLE_MILLIS       receives until nothing comes for IDLE_MILLIS; OK n=N bodies=B1,B2,... (groups as
//                                GROUP:BODY on a DISH)
//   poke NAME                    OK: reads ZMQ_EVENTS, which makes libzmq apply the socket's pending commands. A
//                                DISH that accepted a connection sends its JOINs only then (or at its next send,
//                                receive or poll): libzmq attaches an accepted pipe in the application's thread.
//   close NAME                   OK
//   exit
//
// What zeromq.js 6.8.0 can't do: it has no Peer class and no zmq_connect_peer, and its native send and receive
// attach a routing id only for type SERVER (12). A PEER (new zmq.Socket(19)) therefore receives (without telling
// whose message it is) but can't send: libzmq refuses a message without routing id with EHOSTUNREACH.
import { createRequire } from "node:module"
import path from "node:path"
import readline from "node:readline"

const nodeDir = process.argv[2]
const lifetime = Number(process.argv[3] ?? "60")
if (!nodeDir) {
  console.error("usage: draft_peer.mjs NODE_DIR [LIFETIME_SECONDS]")
  process.exit(2)
}
// zeromq lives in the build's target/node, not next to this script: resolve it from there.
const require = createRequire(path.join(path.resolve(nodeDir), "package.json"))
// zeromq/draft warns once that drafts are experimental; we know, and stderr is kept for real trouble.
process.removeAllListeners("warning")
const zmq = require("zeromq")
const draft = require("zeromq/draft")

setTimeout(() => {
  console.error(`draft_peer: lifetime of ${lifetime} s is over`)
  process.exit(3)
}, lifetime * 1000).unref()

// libzmq's numbers; the draft ones through the zeromq/draft classes where zeromq.js has one.
const TYPES = {
  PAIR: 0, PUB: 1, SUB: 2, REQ: 3, REP: 4, DEALER: 5, ROUTER: 6, PULL: 7, PUSH: 8,
  SERVER: 12, CLIENT: 13, RADIO: 14, DISH: 15, GATHER: 16, SCATTER: 17, PEER: 19, CHANNEL: 20,
}
const CLASSES = {
  SERVER: draft.Server, CLIENT: draft.Client, RADIO: draft.Radio, DISH: draft.Dish,
  GATHER: draft.Gather, SCATTER: draft.Scatter,
}
// Raw option numbers: the generic zmq.Socket has no named accessors for them.
const ZMQ_EVENTS = 15
const ZMQ_LINGER = 17
const ZMQ_RCVTIMEO = 27
const ZMQ_SNDTIMEO = 28

const sockets = new Map()

function sock(name) {
  const s = sockets.get(name)
  if (!s) throw new Error(`no socket ${name}`)
  return s
}

function parseOpts(tokens) {
  const opts = {}
  for (const t of tokens) {
    const [k, v] = t.split("=", 2)
    if (k === "rid") opts.routingId = Number(v)
    else if (k === "group") opts.group = v
    else throw new Error(`unknown send option ${t}`)
  }
  return opts
}

// One message, or null after `millis`. A receive can't be abandoned without losing what it would have returned,
// so the timeout is libzmq's own (RCVTIMEO: EAGAIN), set before each receive.
async function receive(s, millis) {
  s.setInt32Option(ZMQ_RCVTIMEO, millis)
  try {
    const parts = await s.receive()
    // zeromq.js: [body] or, for SERVER and DISH, [body, {routingId} | {group}].
    const meta = parts.length > 1 && !(parts[1] instanceof Buffer) ? parts[1] : {}
    return { body: parts[0].toString(), routingId: meta.routingId, group: meta.group?.toString() }
  } catch (e) {
    if (e.code === "EAGAIN") return null
    throw e
  }
}

function describe(m) {
  let line = `MSG ${m.body}`
  if (m.routingId !== undefined) line += ` rid=${m.routingId}`
  if (m.group !== undefined) line += ` group=${m.group}`
  return line
}

async function send(s, body, opts) {
  if (opts.routingId !== undefined || opts.group !== undefined) await s.send(body, opts)
  else await s.send(body)
}

const commands = {
  async version() {
    const pkg = require("zeromq/package.json")
    return `OK ${zmq.version} zeromq.js ${pkg.version} draft=${zmq.capability.draft}`
  },
  async new(name, type) {
    if (!(type in TYPES)) throw new Error(`unknown type ${type}`)
    const Class = CLASSES[type]
    const s = Class ? new Class() : new zmq.Socket(TYPES[type])
    s.setInt32Option(ZMQ_SNDTIMEO, 5000)
    s.setInt32Option(ZMQ_LINGER, 1000)
    sockets.set(name, s)
    return "OK"
  },
  async bind(name, endpoint) {
    const s = sock(name)
    await s.bind(endpoint)
    return `OK ${s.lastEndpoint}`
  },
  async connect(name, endpoint) {
    sock(name).connect(endpoint)
    return "OK"
  },
  async connectpeer() {
    return "ERR ENOTSUP zeromq.js 6.8.0 has no zmq_connect_peer"
  },
  async join(name, group) {
    sock(name).join(group)
    return "OK"
  },
  async leave(name, group) {
    sock(name).leave(group)
    return "OK"
  },
  async send(name, body, ...opts) {
    await send(sock(name), body, parseOpts(opts))
    return "OK"
  },
  async sendn(name, count, prefix) {
    const s = sock(name)
    for (let i = 0; i < Number(count); i++) await s.send(`${prefix}-${i}`)
    return `OK sent=${count}`
  },
  async recv(name, millis) {
    const m = await receive(sock(name), Number(millis))
    return m ? describe(m) : "NONE"
  },
  async echo(name, count, millis) {
    const s = sock(name)
    const rids = []
    for (let i = 0; i < Number(count); i++) {
      const m = await receive(s, Number(millis))
      if (!m) return `ERR EAGAIN nothing received within ${millis} ms after ${i} messages`
      if (m.routingId !== undefined && !rids.includes(m.routingId)) rids.push(m.routingId)
      await send(s, m.body, m.routingId !== undefined ? { routingId: m.routingId } : {})
    }
    return `OK n=${count} rids=${rids.join(",")}`
  },
  async drain(name, idle) {
    const s = sock(name)
    const bodies = []
    for (let m; (m = await receive(s, Number(idle))) !== null;) {
      bodies.push(m.group !== undefined ? `${m.group}:${m.body}` : m.body)
    }
    return `OK n=${bodies.length} bodies=${bodies.join(",")}`
  },
  async poke(name) {
    sock(name).getInt32Option(ZMQ_EVENTS)
    return "OK"
  },
  async close(name) {
    sock(name).close()
    sockets.delete(name)
    return "OK"
  },
}

const lines = readline.createInterface({ input: process.stdin, terminal: false })
for await (const line of lines) {
  const [cmd, ...args] = line.trim().split(/\s+/)
  if (!cmd) continue
  if (cmd === "exit") break
  let answer
  try {
    const f = commands[cmd]
    answer = f ? await f(...args) : `ERR EINVAL unknown command ${cmd}`
  } catch (e) {
    answer = `ERR ${e.code ?? "EXCEPTION"} ${String(e.message).replace(/\s+/g, " ")}`
  }
  console.log(answer)
}
for (const s of sockets.values()) s.close()
// zeromq.js keeps the process alive while its context has sockets lingering; they are closed, so leave now.
process.exit(0)
