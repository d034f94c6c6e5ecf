#!/usr/bin/env python3
"""libzmq's side of `zmtp bench fanout` and `zmtp bench router-scale`, driven by pyzmq (bench/scale.sh runs both).

  scale_libzmq.py fanout --subscribers N --size S --duration D [--io-threads K]
  scale_libzmq.py router-scale --peers N --size S --duration D [--io-threads K] [--inflight F]

fanout: a PUB bound on tcp://127.0.0.1 in a process of its own, publishing as fast as pyzmq's send returns; N SUB
sockets in this process, one thread taking what each has ready in turn (zmq.Poller when a round found nothing).
libzmq counts no drops, so the drops printed are what the publisher sent to each subscriber minus what reached it
(after a last drain): libzmq's PUB drops at SNDHWM as ours does.

router-scale: a ROUTER in this process (connect time from its monitor's HANDSHAKE_SUCCEEDED events, resident set
from /proc/self/status before the DEALERs connect and after), N DEALERs in child processes of at most 4,000 each
(a libzmq socket holds an eventfd besides its connection, and this machine allows 20,000 descriptors per process),
each DEALER keeping --inflight requests outstanding; one loop here echoes them and counts.

Output mirrors the Java tools: a line per second, then `average: ...`. The Python loops, not libzmq, bound most of
these rates (a few microseconds of interpreter per message); docs/PERFORMANCE.md says where.
"""
import argparse
import multiprocessing as mp
import os
import sys
import time

import zmq


def rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return -1


def seconds_printer(duration, counter, suffix=lambda rate: ""):
    """Calls counter() once a second for `duration` seconds, printing the rate; returns the sum of the rates."""
    start = time.monotonic()
    last_total, last_t, total_rates = counter(), start, 0
    for s in range(1, duration + 1):
        while True:
            wait = start + s - time.monotonic()
            if wait <= 0:
                break
            yield None
        now = time.monotonic()
        total = counter()
        rate = round((total - last_total) / (now - last_t))
        print(f"{s}s:{rate:13,d} messages/s.    (total:{total:13,d}){suffix(rate)}", flush=True)
        total_rates += rate
        last_total, last_t = total, now
    yield total_rates


# ---- fanout

def publisher(endpoint_q, published, running, size, io_threads):
    ctx = zmq.Context(io_threads)
    pub = ctx.socket(zmq.PUB)
    pub.linger = 0
    pub.bind("tcp://127.0.0.1:*")
    endpoint_q.put(pub.getsockopt_string(zmq.LAST_ENDPOINT))
    payload = b"\0" * size
    while running.value == 0:
        time.sleep(0.01)
    n = 0
    send = pub.send
    while running.value == 1:
        for _ in range(1000):
            send(payload)
        n += 1000
        published.value = n
    pub.close()
    ctx.term()


def fanout(args):
    endpoint_q = mp.Queue()
    published = mp.Value("q", 0, lock=False)
    running = mp.Value("i", 0, lock=False)
    p = mp.Process(target=publisher, args=(endpoint_q, published, running, args.size, args.io_threads))
    p.start()
    endpoint = endpoint_q.get()
    ctx = zmq.Context(args.io_threads)
    subs = []
    for _ in range(args.subscribers):
        s = ctx.socket(zmq.SUB)
        s.linger = 0
        s.setsockopt(zmq.SUBSCRIBE, b"")
        s.connect(endpoint)
        subs.append(s)
    # libzmq has no per-peer state to ask; give the connections and subscriptions time to arrive.
    time.sleep(0.5 + args.subscribers * 0.005)
    poller = zmq.Poller()
    for s in subs:
        poller.register(s, zmq.POLLIN)
    counts = [0] * len(subs)
    total = [0]
    print(f"libzmq (pyzmq {zmq.__version__}, libzmq {zmq.zmq_version()}) fanout: PUB -> {args.subscribers} SUB over "
          f"{endpoint}, 1 x {args.size} B frames per message, SNDHWM 1000, {args.io_threads} I/O thread(s) per side, "
          f"1 receiving thread, {args.duration} s", flush=True)
    running.value = 1
    last = [0]

    def suffix(rate):
        pub_now = published.value
        line = f"    per subscriber: {rate // len(subs):,d}/s    published: {pub_now - last[0]:,d}/s"
        last[0] = pub_now
        return line

    def drain(limit):
        got_round = 0
        for i, s in enumerate(subs):
            got = 0
            try:
                while got < limit:
                    s.recv(zmq.NOBLOCK)
                    got += 1
            except zmq.Again:
                pass
            counts[i] += got
            got_round += got
        total[0] += got_round
        return got_round

    t0 = time.monotonic()
    rates = None
    for rates in seconds_printer(args.duration, lambda: total[0], suffix):
        if rates is not None:
            break
        if drain(256) == 0:
            poller.poll(100)
    running.value = 2
    p.join()
    sent = published.value
    # What was on its way when the publisher stopped.
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        if drain(1 << 30) == 0:
            time.sleep(0.01)
    dropped = max(0, sent * len(subs) - sum(counts))
    d = args.duration
    print(f"average: {rates // d:,d} messages/s delivered over {d} s to {len(subs)} subscribers, "
          f"{rates // d // len(subs):,d}/s per subscriber (slowest {min(counts) // d:,d}/s, fastest "
          f"{max(counts) // d:,d}/s); published {sent // d:,d}/s; dropped at SNDHWM {dropped:,d} "
          f"({dropped // len(subs):,d} per subscriber)", flush=True)
    for s in subs:
        s.close()
    ctx.term()


# ---- router-scale

def dealers(endpoint, count, inflight, size, io_threads, report, go):
    ctx = zmq.Context(io_threads)
    ctx.set(zmq.MAX_SOCKETS, count + 16)
    report.put(("before", rss_bytes()))
    socks = []
    for _ in range(count):
        d = ctx.socket(zmq.DEALER)
        d.linger = 0
        d.connect(endpoint)
        socks.append(d)
    go.wait()
    report.put(("connected", rss_bytes()))
    payload = b"\0" * size
    for d in socks:
        for _ in range(inflight):
            d.send(payload)
    poller = zmq.Poller()
    for d in socks:
        poller.register(d, zmq.POLLIN)
    while True:
        for d, _ in poller.poll(100):
            try:
                while True:
                    d.recv(zmq.NOBLOCK)
                    d.send(payload, zmq.NOBLOCK)
            except zmq.Again:
                pass


def router_scale(args):
    ctx = zmq.Context(args.io_threads)
    router = ctx.socket(zmq.ROUTER)
    router.linger = 0
    router.sndhwm = router.rcvhwm = max(1000, 2 * args.inflight)
    mon = router.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED)
    router.bind("tcp://127.0.0.1:*")
    endpoint = router.getsockopt_string(zmq.LAST_ENDPOINT)
    procs_n = max(1, -(-args.peers // 4000))
    print(f"libzmq (pyzmq {zmq.__version__}, libzmq {zmq.zmq_version()}) router-scale: {args.peers} DEALER -> ROUTER "
          f"over {endpoint}, 1 x {args.size} B frames per request, {args.inflight} in flight per DEALER, "
          f"{args.io_threads} I/O thread(s) per side, DEALERs in {procs_n} child process(es), {args.duration} s",
          flush=True)
    before = rss_bytes()
    print(f"before: RSS {before // 1024:,d} KiB", flush=True)
    report = mp.Queue()
    go = mp.Event()
    shares = [args.peers // procs_n + (1 if i < args.peers % procs_n else 0) for i in range(procs_n)]
    procs = [mp.Process(target=dealers, args=(endpoint, n, args.inflight, args.size, args.io_threads, report, go),
                        daemon=True) for n in shares]
    child_before = 0
    start = None
    for p in procs:
        p.start()
    for _ in procs:
        kind, v = report.get()
        child_before += v
    start = time.monotonic()
    handshakes = 0
    next_report = start + 1
    deadline = start + 120
    while handshakes < args.peers:
        if mon.poll(100):
            mon.recv_multipart()
            handshakes += 1
        now = time.monotonic()
        if now > next_report:
            print(f"  {int(now - start)}s: {handshakes:,d} of {args.peers:,d} handshaken", flush=True)
            next_report += 1
        if now > deadline:
            print(f"router-scale: {handshakes} of {args.peers} handshakes within 120 s", file=sys.stderr)
            for p in procs:
                p.kill()
            return 1
    connect_ms = int((time.monotonic() - start) * 1000)
    after = rss_bytes()
    go.set()
    child_after = 0
    for _ in procs:
        kind, v = report.get()
        child_after += v
    per_peer = (f"ROUTER process RSS {(after - before) // args.peers:,d} B; DEALER processes RSS "
                f"{(child_after - child_before) // args.peers:,d} B")
    print(f"connected: {args.peers} peers in {connect_ms:,d} ms; {args.peers * 1000 / max(1, connect_ms):,.0f} "
          f"handshakes/s", flush=True)
    print(f"after: ROUTER process RSS {after // 1024:,d} KiB; DEALER processes RSS {child_after // 1024:,d} KiB",
          flush=True)
    print(f"per peer: {per_peer}", flush=True)
    echoed = [0]
    rates = None
    recv, send = router.recv_multipart, router.send_multipart
    for rates in seconds_printer(args.duration, lambda: echoed[0]):
        if rates is not None:
            break
        if router.poll(100):
            try:
                for _ in range(1000):
                    send(recv(zmq.NOBLOCK))
                    echoed[0] += 1
            except zmq.Again:
                pass
    print(f"average: {rates // args.duration:,d} requests/s over {args.duration} s with {args.peers} peers "
          f"({args.inflight} in flight each); connect {connect_ms:,d} ms; per peer: {per_peer}", flush=True)
    for p in procs:
        p.kill()
        p.join()
    mon.close()
    router.close()
    ctx.term()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tool", choices=["fanout", "router-scale"])
    ap.add_argument("--subscribers", type=int, default=10)
    ap.add_argument("--peers", type=int, default=1000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--io-threads", type=int, default=1)
    ap.add_argument("--inflight", type=int, default=4)
    args = ap.parse_args()
    mp.set_start_method("fork")
    return (fanout if args.tool == "fanout" else router_scale)(args) or 0


if __name__ == "__main__":
    sys.exit(main())
