"""REP peer: binds, prints 'ENDPOINT <address>', echoes COUNT requests (printing 'RECV <hex frames>'), exits.

Usage: rep_echo.py [ENDPOINT [COUNT]]   (default tcp://127.0.0.1:* so the OS picks a free port)
Exits non-zero if a request does not arrive within 10 s, so a broken test never leaves it running.
"""
import sys

import zmq


def main():
    endpoint = sys.argv[1] if len(sys.argv) > 1 else "tcp://127.0.0.1:*"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ctx = zmq.Context()
    sock = ctx.socket(zmq.REP)
    sock.setsockopt(zmq.LINGER, 1000)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    sock.bind(endpoint)
    print("ENDPOINT", sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    for _ in range(count):
        frames = sock.recv_multipart()
        print("RECV", " ".join(f.hex() for f in frames), flush=True)
        sock.send_multipart(frames)
    sock.close()
    ctx.term()


if __name__ == "__main__":
    main()
