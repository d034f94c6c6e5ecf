"""The libzmq peer of `zmtp soak` (pyzmq): binds, prints READY, serves until killed.

push-pull: a PULL that prints each run of consecutive sequence numbers it received as "R first last", at least
every 20 ms. dealer-router: a ROUTER that echoes every message, with ROUTER_MANDATORY so that a full pipe makes it
wait rather than drop. Usage: soak_peer.py <pattern> <bind-to>
"""
import struct
import sys
import time

import zmq


def main():
    pattern, endpoint = sys.argv[1], sys.argv[2]
    ctx = zmq.Context()
    sock = ctx.socket(zmq.PULL if pattern == "push-pull" else zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 0)
    if pattern != "push-pull":
        sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
    for attempt in range(100):  # the killed peer's port may still be held for a moment
        try:
            sock.bind(endpoint)
            break
        except zmq.ZMQError:
            if attempt == 99:
                raise
            time.sleep(0.05)
    print("READY", flush=True)
    if pattern != "push-pull":
        while True:
            sock.send_multipart(sock.recv_multipart(copy=False), copy=False)
    sock.setsockopt(zmq.RCVTIMEO, 20)
    out = sys.stdout
    first = last = None
    flush_at = time.monotonic() + 0.02
    count = 0
    while True:
        try:
            n = struct.unpack_from(">q", sock.recv())[0]
        except zmq.Again:
            n = None
        if n is not None:
            if first is not None and n != last + 1:
                out.write("R %d %d\n" % (first, last))
                first = None
            if first is None:
                first = n
            last = n
            count += 1
        if n is None or (count & 255) == 0:
            now = time.monotonic()
            if n is None or now >= flush_at:
                if first is not None:
                    out.write("R %d %d\n" % (first, last))
                    first = None
                out.flush()
                flush_at = now + 0.02


if __name__ == "__main__":
    main()
