"""libzmq PUB or XPUB for the downgrade tests: binds, prints 'ENDPOINT <address>', then publishes pairs of two-frame
messages [b'ab', b'%d' % i] and [b'xy', b'%d' % i] for i = 0, 1, ... until the subscriber disconnects (or 20 s).

With XPUB it first waits for the subscriber's subscription and prints 'SUBSCRIPTION <hex>' (for a ZMTP 1.0 peer
this is the subscribe-all libzmq injects itself), and then publishes. With PUB it can't know when the subscription
arrived, so it publishes one pair per millisecond from the start; early messages may be dropped.

Usage: downgrade_publisher.py ENDPOINT pub|xpub
"""
import sys
import time

import zmq


def main():
    endpoint, kind = sys.argv[1], sys.argv[2]
    ctx = zmq.Context()
    sock = ctx.socket(zmq.XPUB if kind == "xpub" else zmq.PUB)
    sock.setsockopt(zmq.LINGER, 0)
    monitor = sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)
    sock.bind(endpoint)
    print("ENDPOINT", sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    deadline = time.monotonic() + 20
    if kind == "xpub":
        sock.setsockopt(zmq.RCVTIMEO, 20_000)
        print("SUBSCRIPTION", sock.recv().hex(), flush=True)
    i = 0
    while time.monotonic() < deadline:
        if monitor.poll(0):
            print("DISCONNECTED after", i, flush=True)
            break
        sock.send_multipart([b"ab", b"%d" % i])
        sock.send_multipart([b"xy", b"%d" % i])
        i += 1
        time.sleep(0.001)
    else:
        print("TIMEOUT after", i, flush=True)
        sys.exit(1)
    monitor.close()
    sock.close()
    ctx.term()


if __name__ == "__main__":
    main()
