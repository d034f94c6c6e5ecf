"""libzmq ROUTER for the downgrade tests: binds, prints 'ENDPOINT <address>', then for COUNT messages echoes each one
back to its sender. Prints 'PEER <routing id hex>' for the first message (the identity libzmq took from the
1.0/2.0 greeting, or the one it generated), then 'DONE <count>' and exits.

Usage: downgrade_router_echo.py ENDPOINT COUNT ROUTING_ID_HEX|-
Exits non-zero if a message does not arrive within 20 s.
"""
import sys

import zmq


def main():
    endpoint, count, routing_id = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 5000)
    sock.setsockopt(zmq.RCVTIMEO, 20_000)
    # A ROUTER drops what it can't queue for a peer at SNDHWM, silently: the test writes all COUNT messages before it
    # reads, and on a loaded machine the echoes of 55 of them were dropped once. COUNT is bounded: no limit.
    sock.setsockopt(zmq.SNDHWM, 0)
    if routing_id != "-":
        sock.setsockopt(zmq.ROUTING_ID, bytes.fromhex(routing_id))
    sock.bind(endpoint)
    print("ENDPOINT", sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    for i in range(count):
        frames = sock.recv_multipart()
        if i == 0:
            print("PEER", frames[0].hex(), flush=True)
        sock.send_multipart(frames)
    print("DONE", count, flush=True)
    sock.close()
    ctx.term()


if __name__ == "__main__":
    main()
