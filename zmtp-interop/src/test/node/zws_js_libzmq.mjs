// ZwsJsInteropIT's peer: the browser client zws.js (zmtp-examples' web page) against libzmq 4.3.5's ws:// server,
// through npm's zeromq 6.8.0, in one Node.js process. zws.js offers only the bare "ZWS2.0" (as a browser must),
// so libzmq's server chooses it: this is the bare form between libzmq and our code. Node's own WebSocket stands in
// for the browser's (Node 22, or 20.10+ with --experimental-websocket).
// Checks: a SUB (zws.js) gets only what it subscribed to from libzmq's PUB, multipart; a REQ-style request from
// zws.js reaches libzmq's ROUTER with the routing id zws.js announced and the empty delimiter, and the reply comes
// back. Prints one line per check ("ok ..."), then "done"; exits non-zero on a failure or after 20 s.
// Usage: node [--experimental-websocket] zws_js_libzmq.mjs NODE_DIR ZWS_JS
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

if (typeof WebSocket === "undefined") {
  console.log("FAILED: this Node.js (" + process.version + ") has no WebSocket: ZwsJsInteropIT needs Node.js 22, or "
    + "20.10+ (which the test runs with --experimental-websocket)");
  process.exit(1);
}
const [nodeDir, zwsJs] = process.argv.slice(2);
const require = createRequire(path.join(nodeDir, "package.json"));
const zmq = require("zeromq");
const { ZwsSocket } = await import(pathToFileURL(zwsJs).href);
const text = new TextDecoder();
setTimeout(() => { console.log("timeout"); process.exit(2); }, 20000).unref();

function check(ok, what) {
  if (!ok) {
    console.log("FAILED " + what);
    process.exit(1);
  }
  console.log("ok " + what);
}

const pub = new zmq.Publisher();
await pub.bind("ws://127.0.0.1:*/stats");
const router = new zmq.Router();
await router.bind("ws://127.0.0.1:*/work");

// SUB from zws.js: libzmq's PUB sends nothing before the subscription arrives, then only topic "a".
const sub = new ZwsSocket(pub.lastEndpoint);
const first = new Promise((resolve) => { sub.onmessage = (frames) => resolve(frames.map((f) => text.decode(f))); });
sub.subscribe("a");
const publishing = setInterval(() => { pub.send(["b", "not subscribed"]); pub.send(["a", "subscribed"]); }, 20);
const got = await first;
clearInterval(publishing);
check(got.length === 2 && got[0] === "a" && got[1] === "subscribed", "libzmq PUB -> zws.js SUB: " + JSON.stringify(got));

// REQ-style from zws.js to libzmq's ROUTER, which sees zws.js's routing id and the empty delimiter.
const req = new ZwsSocket(router.lastEndpoint, { routingId: "zws-js" });
const served = (async () => {
  const [id, delimiter, body] = await router.receive();
  check(text.decode(id) === "zws-js" && delimiter.length === 0 && text.decode(body) === "hello",
    "zws.js request -> libzmq ROUTER: [" + text.decode(id) + ", <" + delimiter.length + " bytes>, " + text.decode(body) + "]");
  await router.send([id, delimiter, "reply", "to hello"]);
})();
const reply = (await req.request("hello")).map((f) => text.decode(f));
await served;
check(reply.length === 2 && reply[0] === "reply" && reply[1] === "to hello", "libzmq ROUTER reply -> zws.js: " + JSON.stringify(reply));

// Two requests at once: zws.js sends the second only once the first is answered, as a REQ socket does.
const echo = (async () => {
  for (let i = 0; i < 2; i++) {
    const [id, delimiter, body] = await router.receive();
    await router.send([id, delimiter, "echo " + text.decode(body)]);
  }
})();
const both = (await Promise.all([req.request("one"), req.request("two")])).map(([f]) => text.decode(f));
await echo;
check(both[0] === "echo one" && both[1] === "echo two", "two requests at once, answered in turn: " + JSON.stringify(both));
check(req.peerRoutingId !== null && req.peerRoutingId.length === 0, "libzmq's routing id message came first (empty)");

sub.close();
req.close();
pub.close();
router.close();
console.log("done");
process.exit(0);
