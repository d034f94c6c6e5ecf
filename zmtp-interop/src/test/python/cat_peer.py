"""libzmq's side of CatLibzmqIT: plays one socket against `zmtp cat` and prints what it received.

usage: cat_peer.py MODE ENDPOINT [SECURITY]
  push-bind      PUSH binds, sends 3 messages [b"hello", b"\\x00\\x01", b"<i>"]
  pull-bind      PULL binds, prints the 2 messages it receives as repr lists
  router-bind    ROUTER binds, echoes 2 requests (routing id kept), prints them
SECURITY: curve=SECRET_Z85 (a CURVE server, any client key) or plain=USER:PASS (a PLAIN server with a ZAP handler
allowing that user alone).
Prints "READY" once bound; exits after its work or a 20 s timeout.
"""
import sys
import threading

import zmq

mode, endpoint = sys.argv[1], sys.argv[2]
ctx = zmq.Context()
kind = {"push-bind": zmq.PUSH, "pull-bind": zmq.PULL, "router-bind": zmq.ROUTER}[mode]
s = ctx.socket(kind)
s.RCVTIMEO = 20000
s.SNDTIMEO = 20000
s.LINGER = 2000
zap = None
if len(sys.argv) > 3:
    kind_, _, value = sys.argv[3].partition("=")
    if kind_ == "curve":
        s.curve_server = 1
        s.curve_secretkey = value.encode()
    else:
        user, _, password = value.partition(":")
        s.plain_server = 1
        zap = ctx.socket(zmq.REP)
        zap.bind("inproc://zeromq.zap.01")

        def serve():
            while True:
                try:
                    req = zap.recv_multipart()
                except zmq.ZMQError:
                    return
                ok = req[6] == user.encode() and req[7] == password.encode()
                zap.send_multipart([b"1.0", req[1], b"200" if ok else b"400", b"", req[6] if ok else b"", b""])

        threading.Thread(target=serve, daemon=True).start()
s.bind(endpoint)
print("READY", flush=True)
if mode == "push-bind":
    for i in range(3):
        s.send_multipart([b"hello", b"\x00\x01", str(i).encode()])
elif mode == "pull-bind":
    for _ in range(2):
        print(s.recv_multipart(), flush=True)
else:
    for _ in range(2):
        msg = s.recv_multipart()
        print(msg[1:], flush=True)
        s.send_multipart(msg)
s.close()
if zap is not None:
    zap.close(linger=0)
ctx.term()
