"""DEALER or ROUTER peer that checks and echoes COUNT messages of the deterministic stream (payloads.py).

Usage: echo_peer.py DEALER|ROUTER ENDPOINT bind|connect COUNT SEED
Message i received must be message i of SEED (after the routing id a ROUTER adds); each is sent back as received.
Prints 'ENDPOINT <address>' when binding, then 'RESULT OK|FAIL ...'. Exits on its own: a gap of 10 s between
messages or 120 s in all ends it with RESULT FAIL.
"""
import sys
import time

import zmq

import payloads


def main():
    if len(sys.argv) != 6:
        payloads.usage_exit(__doc__)
    kind, endpoint, mode, count, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    router = kind == "ROUTER"
    messages = payloads.Messages(seed)
    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER if router else zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 10_000)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    if router:
        # A ROUTER drops what it can't queue for a peer at SNDHWM, silently; COUNT is bounded: no limit.
        sock.setsockopt(zmq.SNDHWM, 0)
    payloads.attach(sock, endpoint, mode)
    deadline = time.monotonic() + 120
    received = 0
    total = 0
    error = None
    try:
        while received < count and time.monotonic() < deadline:
            frames = sock.recv_multipart()
            body = frames[1:] if router else frames
            error = messages.check(received, body)
            if error:
                break
            total += sum(len(f) for f in body)
            sock.send_multipart(frames)
            received += 1
    except zmq.Again:
        error = f"nothing received for 10 s after {received} messages"
    if error is None and received < count:
        error = f"deadline passed after {received} messages"
    status = payloads.result(error is None, received=received, bytes=total,
                             error=repr(error) if error else "none")
    sock.close()
    ctx.term()
    sys.exit(status)


if __name__ == "__main__":
    main()
