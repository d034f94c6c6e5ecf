"""PUB peer: publishes warm-up messages until told 'GO' on stdin, then COUNT messages of the stream (payloads.py).

Usage: pub_peer.py ENDPOINT bind|connect COUNT SEED
Warm-up: ['data-warmup'] every 10 ms, so the subscriber can tell when its SUBSCRIBE has reached libzmq's filter.
Stream: message i = ['data'] + frames of message i; after every 10th a ['skip', 'x'] message that a subscriber to
'data' must never see (libzmq PUB filters it). Prints 'ENDPOINT <address>' when binding, then
'RESULT OK sent=N skipped=M'. Gives up (RESULT FAIL) if 'GO' does not come within 20 s.
"""
import select
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
    sock = ctx.socket(zmq.PUB)
    # No high-water mark: a slow reader must see every message, not libzmq's drops.
    sock.setsockopt(zmq.SNDHWM, 0)
    sock.setsockopt(zmq.LINGER, 30_000)
    payloads.attach(sock, endpoint, mode)
    deadline = time.monotonic() + 20
    go = False
    warmups = 0
    while not go and time.monotonic() < deadline:
        sock.send_multipart([payloads.WARMUP_TOPIC])
        warmups += 1
        ready, _, _ = select.select([sys.stdin], [], [], 0.01)
        if ready:
            line = sys.stdin.readline()
            if line.strip() == "GO":
                go = True
            elif not line:
                break
    if not go:
        status = payloads.result(False, error="'GO' never came", warmups=warmups)
    else:
        skipped = 0
        for i in range(count):
            sock.send_multipart([payloads.TOPIC] + messages.frames(i))
            if i % 10 == 9:
                sock.send_multipart([payloads.SKIP_TOPIC, b"x"])
                skipped += 1
        status = payloads.result(True, sent=count, skipped=skipped, warmups=warmups)
    sock.close()
    ctx.term()
    sys.exit(status)


if __name__ == "__main__":
    main()
