"""libzmq DEALER with ZMTP heartbeats on: checks that the peer keeps the connection alive by answering PINGs.

Usage: heartbeat_peer.py ENDPOINT IVL_MS TTL_MS TIMEOUT_MS SILENCE_MS
Connects with ZMQ_HEARTBEAT_IVL/TTL/TIMEOUT set, waits for the handshake (socket monitor), sends nothing for
SILENCE_MS (only heartbeats flow: libzmq drops the connection if a PING gets no answer within TIMEOUT_MS), then
sends one message and expects it echoed. Prints 'RESULT OK handshakes=1 disconnects=0 ...' if the first
connection survived, else 'RESULT FAIL ...'. Ends on its own within about 30 s.
"""
import sys
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

import payloads


def main():
    if len(sys.argv) != 6:
        payloads.usage_exit(__doc__)
    endpoint = sys.argv[1]
    ivl, ttl, timeout, silence = (int(a) for a in sys.argv[2:6])
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.HEARTBEAT_IVL, ivl)
    sock.setsockopt(zmq.HEARTBEAT_TTL, ttl)
    sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, timeout)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RCVTIMEO, 5_000)
    monitor = sock.get_monitor_socket()
    events = {}

    def drain(until):
        while True:
            left = until - time.monotonic()
            if left <= 0 or not monitor.poll(int(left * 1000)):
                return
            event = recv_monitor_message(monitor)["event"]
            name = zmq.Event(event).name
            events[name] = events.get(name, 0) + 1

    sock.connect(endpoint)
    deadline = time.monotonic() + 10
    while not events.get("HANDSHAKE_SUCCEEDED") and time.monotonic() < deadline:
        drain(min(deadline, time.monotonic() + 0.05))
    if not events.get("HANDSHAKE_SUCCEEDED"):
        status = payloads.result(False, error="no handshake within 10 s", events=events)
    else:
        drain(time.monotonic() + silence / 1000)
        echo = "none"
        try:
            sock.send(b"after-silence")
            echo = sock.recv().decode()
        except zmq.Again:
            echo = "timeout"
        drain(time.monotonic() + 0.05)
        handshakes = events.get("HANDSHAKE_SUCCEEDED", 0)
        disconnects = events.get("DISCONNECTED", 0)
        ok = handshakes == 1 and disconnects == 0 and echo == "after-silence"
        status = payloads.result(ok, handshakes=handshakes, disconnects=disconnects, echo=echo,
                                 events=",".join(f"{k}:{v}" for k, v in sorted(events.items())))
    sock.disable_monitor()
    monitor.close()
    sock.close()
    ctx.term()
    sys.exit(status)


if __name__ == "__main__":
    main()
