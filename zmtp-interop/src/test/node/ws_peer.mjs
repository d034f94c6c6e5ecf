// A libzmq peer over ws:// (ZWS 2.0) for WsInteropIT, through npm's zeromq (zeromq.js 6.8.0, libzmq 4.3.5, whose
// prebuilt addon is built with ws:// on).
//
// Usage: node ws_peer.mjs NODE_DIR ROLE ENDPOINT COUNT
//   NODE_DIR: where zeromq is installed (NODE_DIR/node_modules/zeromq);
//   ROLE: TYPE-bind or TYPE-connect, TYPE one of push, pull, req, rep;
//   ENDPOINT: ws://host:port/path (bind takes a * port: libzmq picks one);
//   COUNT: how many messages (or requests) before the peer exits.
//
// Prints 'BOUND <endpoint>' once bound (connecting roles print 'READY'), then one 'MSG <frames joined by |>' per
// message received, then 'DONE'. What it sends: push, message i is the two frames 'm<i>' and 'tail' (a MORE flag
// each way); req, request i is 'q<i>' and it prints each reply; rep answers each request with 're:<request>'.
// Exits 3 if it has not finished within 20 s, so a test that dies leaves nothing running.
import { createRequire } from "node:module"
import path from "node:path"

const [nodeDir, role, endpoint, countText] = process.argv.slice(2)
if (!nodeDir || !role || !endpoint || !countText) {
  console.error("usage: ws_peer.mjs NODE_DIR ROLE ENDPOINT COUNT")
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
const classes = { push: zmq.Push, pull: zmq.Pull, req: zmq.Request, rep: zmq.Reply }
if (!classes[type] || (how !== "bind" && how !== "connect")) {
  console.error(`ws_peer: unknown role ${role}`)
  process.exit(2)
}
const socket = new classes[type]({ linger: 2000 })
const text = frames => frames.map(f => f.toString()).join("|")

try {
  if (how === "bind") {
    await socket.bind(endpoint)
    console.log(`BOUND ${socket.lastEndpoint}`)
  } else {
    socket.connect(endpoint)
    console.log("READY")
  }
  for (let i = 0; i < count; i++) {
    if (type === "push") {
      await socket.send([`m${i}`, "tail"])
    } else if (type === "pull") {
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
} catch (e) {
  console.log(`ERR ${e.code ?? ""} ${e.message}`)
  process.exit(1)
}
