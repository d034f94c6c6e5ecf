"""libzmq's side of CatLibzmqIT: plays one socket against `zmtp cat` and prints what it received.

usage: cat_peer.py MODE ENDPOINT
  push-bind      PUSH binds, sends 3 messages [b"hello", b"\\x00\\x01", b"<i>"]
  pull-bind      PULL binds, prints the 2 messages it receives as repr lists
  router-bind    ROUTER binds, echoes 2 requests (routing id kept), prints them
Prints "READY" once bound; exits after its work or a 20 s timeout.
"""
import sys
import zmq

mode, endpoint = sys.argv[1], sys.argv[2]
ctx = zmq.Context()
kind = {"push-bind": zmq.PUSH, "pull-bind": zmq.PULL, "router-bind": zmq.ROUTER}[mode]
s = ctx.socket(kind)
s.RCVTIMEO = 20000
s.SNDTIMEO = 20000
s.LINGER = 2000
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
ctx.term()
