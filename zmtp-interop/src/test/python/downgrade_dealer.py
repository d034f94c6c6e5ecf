"""libzmq DEALER for the downgrade tests: connects to ENDPOINT (the codec under test, a ROUTER that echoes with its
own payloads), sends COUNT messages (downgrade_payloads direction 0) and checks each reply against direction 1.
Prints 'DONE <count>' when all replies matched, or 'MISMATCH <i> <frames hex>' and exits 1.

Usage: downgrade_dealer.py ENDPOINT COUNT SEED ROUTING_ID_HEX|-
"""
import sys

import zmq

from downgrade_payloads import FROM_PEER, TO_PEER, message


def main():
    endpoint, count, seed, routing_id = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 5000)
    sock.setsockopt(zmq.RCVTIMEO, 20_000)
    if routing_id != "-":
        sock.setsockopt(zmq.ROUTING_ID, bytes.fromhex(routing_id))
    sock.connect(endpoint)
    received = 0
    for i in range(count):
        sock.send_multipart(message(FROM_PEER, seed, i))
        # Keep at most 100 in flight so neither side's high-water mark is a factor.
        while i - received >= 100:
            received = check(sock, seed, received)
    while received < count:
        received = check(sock, seed, received)
    print("DONE", count, flush=True)
    sock.close()
    ctx.term()


def check(sock, seed, i):
    frames = sock.recv_multipart()
    if frames != message(TO_PEER, seed, i):
        print("MISMATCH", i, " ".join(f.hex() for f in frames), flush=True)
        sys.exit(1)
    return i + 1


if __name__ == "__main__":
    main()
