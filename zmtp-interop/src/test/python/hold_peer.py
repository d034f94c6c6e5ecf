"""Opens one libzmq socket of SOCKET_TYPE for SECONDS and reports its socket monitor's events.

Usage: hold_peer.py SOCKET_TYPE ENDPOINT bind|connect SECONDS
Prints 'ENDPOINT <address>' when binding, then 'RESULT OK handshakes=N events=NAME:count,...' when SECONDS are up.
"""
import sys
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

import payloads


def main():
    if len(sys.argv) != 5:
        payloads.usage_exit(__doc__)
    kind, endpoint, mode, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    ctx = zmq.Context()
    sock = ctx.socket(getattr(zmq, kind))
    sock.setsockopt(zmq.LINGER, 0)
    monitor = sock.get_monitor_socket()
    payloads.attach(sock, endpoint, mode)
    events = {}
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not monitor.poll(int(left * 1000)):
            break
        name = zmq.Event(recv_monitor_message(monitor)["event"]).name
        events[name] = events.get(name, 0) + 1
    status = payloads.result(True, handshakes=events.get("HANDSHAKE_SUCCEEDED", 0),
                             events=",".join(f"{k}:{v}" for k, v in sorted(events.items())))
    sock.disable_monitor()
    monitor.close()
    sock.close()
    ctx.term()
    sys.exit(status)


if __name__ == "__main__":
    main()
