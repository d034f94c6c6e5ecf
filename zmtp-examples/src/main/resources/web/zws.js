// zws.js: a ZeroMQ client for the browser, over the browser's own WebSocket. No framework, no build step:
// copy this file next to your page and `import { ZwsSocket } from "./zws.js"`.
//
// The wire protocol is ZWS 2.0 (https://rfc.zeromq.org/spec/45/), as libzmq and netty-zmtp speak it:
//  - Subprotocol "ZWS2.0", the bare form. Browsers refuse "ZWS2.0/NULL" (`new WebSocket(url, "ZWS2.0/NULL")`
//    throws a SyntaxError: "/" is not allowed in a subprotocol token), so the bare form it is. It means NULL
//    security and no handshake: the first message each way is the sender's routing id, then messages.
//  - Each binary WebSocket message is one ZeroMQ frame: a flags byte (0x01 MORE: another frame of the same
//    message follows; 0x02 COMMAND), then the frame's bytes.
//  - A SUB subscribes by sending the one-frame message 0x01 + topic, and unsubscribes with 0x00 + topic.
//  - Routing is the server socket's: to a ROUTER this is a DEALER (request() makes it REQ-like, with the empty
//    delimiter frame), to a PUB it is a SUB, to a PULL a PUSH.

const MORE = 0x01;
const COMMAND = 0x02;
const encoder = new TextEncoder();

/** A string is sent as UTF-8; a Uint8Array or ArrayBuffer as it is. */
function toBytes(frame) {
  if (typeof frame === "string") return encoder.encode(frame);
  if (frame instanceof ArrayBuffer) return new Uint8Array(frame);
  if (frame instanceof Uint8Array) return frame;
  throw new TypeError("a frame is a string, a Uint8Array or an ArrayBuffer");
}

export class ZwsSocket {
  /**
   * Connects to a ZeroMQ socket served at a ws:// or wss:// URL. Options: routingId (string or bytes, sent as
   * this side's identity; empty by default, so a ROUTER makes one up).
   *
   * Callbacks: onopen(), onmessage(frames) with frames an array of Uint8Array (one ZeroMQ message),
   * onclose({code, reason}).
   */
  constructor(url, { routingId = "" } = {}) {
    this.onopen = () => {};
    this.onmessage = () => {};
    this.onclose = () => {};
    this.peerRoutingId = null;    // the server socket's routing id, its first message
    this._parts = [];             // frames of a message still arriving
    this._queue = [];             // what was sent before the connection opened
    this._requests = [];          // request() calls waiting for their reply, oldest first
    this._ws = new WebSocket(url, "ZWS2.0");
    this._ws.binaryType = "arraybuffer";
    this._ws.onopen = () => {
      if (this._ws.protocol !== "ZWS2.0") {
        this._ws.close(1002, "the server did not take subprotocol ZWS2.0");
        return;
      }
      this._sendFrame(toBytes(routingId), 0);
      for (const frames of this._queue) this.send(frames);
      this._queue = [];
      this.onopen();
    };
    this._ws.onmessage = (event) => this._receive(new Uint8Array(event.data));
    this._ws.onclose = (event) => {
      for (const r of this._requests) r.reject(new Error("connection closed: " + event.code));
      this._requests = [];
      this.onclose({ code: event.code, reason: event.reason });
    };
  }

  /** Sends one message: an array of frames (or a single frame). */
  send(frames) {
    if (!Array.isArray(frames)) frames = [frames];
    if (this._ws.readyState === WebSocket.CONNECTING) {
      this._queue.push(frames);
      return;
    }
    frames.forEach((f, i) => this._sendFrame(toBytes(f), i < frames.length - 1 ? MORE : 0));
  }

  /** SUB: receive the messages whose first frame starts with topic ("" for all). */
  subscribe(topic) {
    this._subscription(1, topic);
  }

  /** SUB: undoes one subscribe(topic). */
  unsubscribe(topic) {
    this._subscription(0, topic);
  }

  /**
   * REQ-style request to a ROUTER (or REP): sends ["", ...frames] and resolves with the reply's frames after its
   * empty delimiter. As a REQ socket, one request is out at a time: later calls wait their turn (a ROUTER's
   * workers may answer in any order, so the next request goes only once the reply to the last is in).
   */
  request(frames) {
    if (!Array.isArray(frames)) frames = [frames];
    return new Promise((resolve, reject) => {
      this._requests.push({ frames, resolve, reject });
      if (this._requests.length === 1) this.send(["", ...frames]);
    });
  }

  close() {
    this._ws.close(1000);
  }

  _subscription(flag, topic) {
    const t = toBytes(topic);
    const body = new Uint8Array(1 + t.length);
    body[0] = flag;
    body.set(t, 1);
    this.send([body]);
  }

  _sendFrame(bytes, flags) {
    const msg = new Uint8Array(1 + bytes.length);
    msg[0] = flags;
    msg.set(bytes, 1);
    this._ws.send(msg);
  }

  _receive(data) {
    if (data.length === 0) {
      this._ws.close(1002, "empty message (no flags byte)");
      return;
    }
    const flags = data[0];
    const body = data.subarray(1);
    if (this.peerRoutingId === null) {
      this.peerRoutingId = body;
      return;
    }
    if (flags & COMMAND) return;  // none in the bare form; ignored
    this._parts.push(body);
    if (flags & MORE) return;
    const frames = this._parts;
    this._parts = [];
    if (this._requests.length > 0 && frames.length > 0 && frames[0].length === 0) {
      this._requests.shift().resolve(frames.slice(1));
      if (this._requests.length > 0) this.send(["", ...this._requests[0].frames]);
      return;
    }
    this.onmessage(frames);
  }
}
