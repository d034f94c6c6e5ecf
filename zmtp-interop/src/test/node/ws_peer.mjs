// A libzmq peer over ws:// (ZWS 2.0) for WsInteropIT, through npm's zeromq (zeromq.js 6.8.0, libzmq 4.3.5, whose
// prebuilt addon is built with ws:// on).
//
// Usage: node ws_peer.mjs NODE_DIR ROLE ENDPOINT COUNT [MECHANISM]
//   NODE_DIR: where zeromq is installed (NODE_DIR/node_modules/zeromq);
//   ROLE: TYPE-bind or TYPE-connect, TYPE one of push, pull, req, rep, pub, sub;
//   ENDPOINT: ws://host:port/path (bind takes a * port: libzmq picks one);
//   COUNT: how many messages (or requests) before the peer exits;
//   MECHANISM: null (the default), plain-server (any user: a ZAP handler that says yes), plain-client:USER:PASSWORD,
//     curve-server (a fresh key pair; its public key is printed), curve-client:SERVER_PUBLIC_KEY_Z85.
//
// Prints 'BOUND <endpoint>' once bound (connecting roles print 'READY'), followed by ' <public key>' for a CURVE
// server, then one 'MSG <frames joined by |>' per message received, then 'DONE'. What it sends: push, message i is
// the two frames 'm<i>' and 'tail' (a MORE flag each way); req, request i is 'q<i>' and it prints each reply; rep
// answers each request with 're:<request>'; pub sends 'A-<n>' then 'B-<n>' every 20 ms (n counting up) until
// it is killed or its lifetime is over; sub subscribes to 'A' and prints COUNT messages.
// WS_PEER_HEARTBEAT=MILLIS in the environment sets ZMQ_HEARTBEAT_IVL to that and ZMQ_HEARTBEAT_TIMEOUT to three times
// it. Exits 3 if it has not finished within 20 s, so a test that dies leaves nothing running.
import { createRequire } from "node:module"
import path from "node:path"

const [nodeDir, role, endpoint, countText, mechanism = "null"] = process.argv.slice(2)
if (!nodeDir || !role || !endpoint || !countText) {
  console.error("usage: ws_peer.mjs NODE_DIR ROLE ENDPOINT COUNT [MECHANISM]")
  process.exit(2)
}
// zeromq lives in the build's target/node, not next to this script: resolve it from there.
const require = createRequire(path.join(path.resolve(nodeDir), "package.json"))
const zmq = require("zeromq")

setTimeout(() => {
  console.error(`ws_peer: ${role} not done within 20 s`)
  process.exit(3)
}, 20_000).unref()

const count = Number(countText)
const [type, how] = role.split("-")
const classes = { push: zmq.Push, pull: zmq.Pull, req: zmq.Request, rep: zmq.Reply, pub: zmq.Publisher,
  sub: zmq.Subscriber }
if (!classes[type] || (how !== "bind" && how !== "connect")) {
  console.error(`ws_peer: unknown role ${role}`)
  process.exit(2)
}
const options = { linger: 2000 }
let announce = ""
let zap = null
if (process.env.WS_PEER_HEARTBEAT) {
  options.heartbeatInterval = Number(process.env.WS_PEER_HEARTBEAT)
  options.heartbeatTimeout = 3 * options.heartbeatInterval
}
// Split at the first ':' only: Z85 keys may hold one.
const colon = mechanism.indexOf(":")
const mech = colon < 0 ? mechanism : mechanism.slice(0, colon)
const rest = colon < 0 ? "" : mechanism.slice(colon + 1)
const args = mech === "plain-client" ? rest.split(":") : [rest]
if (mech === "plain-server") {
  options.plainServer = true
  // libzmq's PLAIN server fails every handshake without a ZAP handler: one that lets anyone in.
  zap = new zmq.Reply()
  await zap.bind("inproc://zeromq.zap.01")
  ;(async () => {
    for await (const [version, requestId] of zap) {
      await zap.send([version, requestId, "200", "OK", "anyone", ""])
    }
  })()
} else if (mech === "plain-client") {
  options.plainUsername = args[0]
  options.plainPassword = args[1]
} else if (mech === "curve-server") {
  const keys = zmq.curveKeyPair()
  options.curveServer = true
  options.curveSecretKey = keys.secretKey
  announce = ` ${keys.publicKey}`
} else if (mech === "curve-client") {
  const keys = zmq.curveKeyPair()
  options.curveServerKey = args[0]
  options.curvePublicKey = keys.publicKey
  options.curveSecretKey = keys.secretKey
} else if (mech !== "null") {
  console.error(`ws_peer: unknown mechanism ${mechanism}`)
  process.exit(2)
}
const socket = new classes[type](options)
const text = frames => frames.map(f => f.toString()).join("|")

try {
  if (how === "bind") {
    await socket.bind(endpoint)
    console.log(`BOUND ${socket.lastEndpoint}${announce}`)
  } else {
    socket.connect(endpoint)
    console.log(`READY${announce}`)
  }
  if (type === "pub") {
    // Until killed: a subscriber joins whenever it joins, and sees only what follows its subscription.
    for (let n = 0; ; n++) {
      await socket.send(`A-${n}`)
      await socket.send(`B-${n}`)
      await new Promise(resolve => setTimeout(resolve, 20))
    }
  }
  if (type === "sub") {
    socket.subscribe("A")
  }
  for (let i = 0; i < count; i++) {
    if (type === "push") {
      await socket.send([`m${i}`, "tail"])
    } else if (type === "pull" || type === "sub") {
      console.log(`MSG ${text(await socket.receive())}`)
    } else if (type === "req") {
      await socket.send(`q${i}`)
      console.log(`MSG ${text(await socket.receive())}`)
    } else {
      const request = await socket.receive()
      console.log(`MSG ${text(request)}`)
      await socket.send(`re:${text(request)}`)
    }
  }
  console.log("DONE")
  // linger lets what was just sent leave before the process does.
  socket.close()
  // The ZAP handler's loop would keep the process alive.
  zap?.close()
} catch (e) {
  console.log(`ERR ${e.code ?? ""} ${e.message}`)
  process.exit(1)
}
