"""SUB peer: subscribes to 'data', checks COUNT messages ['data'] + frames of message i (payloads.py).

Usage: sub_peer.py ENDPOINT bind|connect COUNT SEED
Prints 'ENDPOINT <address>' when binding, then 'RESULT OK received=N bytes=B' or 'RESULT FAIL ...'.
A gap of 10 s between messages or 120 s in all ends it with RESULT FAIL.
"""
import sys
import time

import zmq

import payloads


def main():
    if len(sys.argv) != 5:
        payloads.usage_exit(__doc__)
    endpoint, mode, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    messages = payloads.Messages(seed)
    ctx = zmq.Context()
    sock = ctx.socket(zmq.SUB)
    sock.setsockopt(zmq.SUBSCRIBE, payloads.TOPIC)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    sock.setsockopt(zmq.LINGER, 0)
    payloads.attach(sock, endpoint, mode)
    deadline = time.monotonic() + 120
    received = 0
    total = 0
    error = None
    try:
        while received < count and time.monotonic() < deadline:
            frames = sock.recv_multipart()
            if frames[0] != payloads.TOPIC:
                error = f"message {received}: topic {frames[0][:32]!r}"
                break
            error = messages.check(received, frames[1:])
            if error:
                break
            total += sum(len(f) for f in frames[1:])
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
