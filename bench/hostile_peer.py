#!/usr/bin/env python3
"""A hostile ZMTP 3.1 PUSH peer: handshakes with NULL, then streams an attack and reports how far it got.

Usage: bench/hostile_peer.py tcp://127.0.0.1:5599 --stream empty-more [--mib 256]

Streams (sent after the handshake, in --chunk sized writes, until --mib MiB are sent or the peer closes):
  wrap        a 100-byte MORE frame (01 64 ...), then a long MORE frame header (03 + u64 2^63-50) whose size wraps
              a 64-bit message total that already holds the 100 bytes, then garbage (AA AA ...) forever
  empty-more  empty MORE frames: 01 00 01 00 ...
  tiny-more   one-byte MORE frames: 01 01 xx 01 01 xx ...
  normal      ordinary single-frame messages of --msg-size bytes (default 1024: long frames 02 + u64 size + body),
              the baseline; run local_thr with the same message size

It prints one line of key=value pairs. bytes_sent counts what the kernel accepted before the close was seen; that
is more than the peer's application read by at most what the two socket buffers hold (our SO_SNDBUF, --sndbuf, plus
the receiver's receive buffer). Python 3 standard library only.
"""

import argparse
import socket
import struct
import sys
import time

MIB = 1024 * 1024


def greeting():
    """ZMTP 3.1 greeting, 64 bytes (rfc 23/37): signature, version 3.1, NULL, as-server 0, filler."""
    g = b"\xff" + b"\x00" * 8 + b"\x7f"          # 0-9: signature (padding not significant)
    g += b"\x03\x01"                              # 10-11: version 3.1
    g += b"NULL".ljust(20, b"\x00")               # 12-31: mechanism
    g += b"\x00"                                  # 32: as-server (must be 0 for NULL)
    g += b"\x00" * 31                             # 33-63: filler
    assert len(g) == 64
    return g


def command(name, data):
    """A command frame: flags 04 (short) or 06 (long), size, then [n]name + data."""
    body = bytes([len(name)]) + name + data
    if len(body) <= 255:
        return bytes([0x04, len(body)]) + body
    return bytes([0x06]) + struct.pack(">Q", len(body)) + body


def ready(socket_type):
    """READY with one property: name_len(u8) name value_len(u32 BE) value (rfc 23 metadata)."""
    name = b"Socket-Type"
    return command(b"READY", bytes([len(name)]) + name + struct.pack(">I", len(socket_type)) + socket_type)


def recv_exactly(sock, n):
    buf = b""
    while len(buf) < n:
        part = sock.recv(n - len(buf))
        if not part:
            raise ConnectionError("peer closed during the handshake after %d of %d bytes" % (len(buf), n))
        buf += part
    return buf


def read_command(sock):
    flags = recv_exactly(sock, 1)[0]
    if flags == 0x04:
        size = recv_exactly(sock, 1)[0]
    elif flags == 0x06:
        size = struct.unpack(">Q", recv_exactly(sock, 8))[0]
    else:
        raise ConnectionError("expected a command frame, got flags 0x%02x" % flags)
    body = recv_exactly(sock, size)
    return body[1:1 + body[0]], body[1 + body[0]:]


def parse_metadata(data):
    props, i = {}, 0
    while i < len(data):
        n = data[i]
        name = data[i + 1:i + 1 + n].decode("ascii")
        i += 1 + n
        (vlen,) = struct.unpack(">I", data[i:i + 4])
        props[name] = data[i + 4:i + 4 + vlen]
        i += 4 + vlen
    return props


def handshake(sock):
    sock.sendall(greeting())
    peer = recv_exactly(sock, 64)
    if peer[0] != 0xFF or not peer[9] & 1 or peer[10] < 3:
        raise ConnectionError("not a ZMTP 3.x greeting: %s" % peer[:12].hex())
    if peer[12:32].rstrip(b"\x00") != b"NULL":
        raise ConnectionError("peer mechanism %r" % peer[12:32])
    sock.sendall(ready(b"PUSH"))
    name, data = read_command(sock)
    if name != b"READY":
        raise ConnectionError("expected READY, got %r %r" % (name, data))
    return "%d.%d" % (peer[10], peer[11]), parse_metadata(data).get("Socket-Type", b"?").decode("ascii")


def stream(kind, chunk, msg_size):
    """Yields the attack's bytes as chunks of about `chunk` bytes, forever."""
    if kind == "wrap":
        yield b"\x01\x64" + b"a" * 100 + b"\x03" + struct.pack(">Q", 2 ** 63 - 50)
        garbage = b"\xaa" * chunk
        while True:
            yield garbage
    elif kind == "empty-more":
        block = b"\x01\x00" * (chunk // 2)
        while True:
            yield block
    elif kind == "tiny-more":
        block = b"".join(b"\x01\x01" + bytes([i % 256]) for i in range(chunk // 3))
        while True:
            yield block
    elif kind == "normal":
        header = b"\x02" + struct.pack(">Q", msg_size) if msg_size > 255 else bytes([0x00, msg_size])
        message = header + b"m" * msg_size
        block = message * max(1, chunk // len(message))
        while True:
            yield block
    else:
        raise ValueError(kind)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("endpoint", help="tcp://host:port")
    ap.add_argument("--stream", required=True, choices=["wrap", "empty-more", "tiny-more", "normal"])
    ap.add_argument("--mib", type=float, default=256, help="stop after this many MiB (default 256)")
    ap.add_argument("--msg-size", type=int, default=1024, help="body size of the normal stream's messages")
    ap.add_argument("--chunk", type=int, default=64 * 1024, help="bytes per send (default 64 KiB)")
    ap.add_argument("--sndbuf", type=int, default=64 * 1024, help="SO_SNDBUF (default 64 KiB)")
    ap.add_argument("--stall", type=float, default=60,
                    help="give up if one send makes no progress for this many seconds (default 60)")
    ap.add_argument("--wait", type=float, default=3,
                    help="after sending everything, hold the connection open this long, watching for the peer to close it "
                         "(default 3 s)")
    args = ap.parse_args()

    if not args.endpoint.startswith("tcp://"):
        ap.error("endpoint must be tcp://host:port")
    host, _, port = args.endpoint[len("tcp://"):].rpartition(":")
    limit = int(args.mib * MIB)

    sock = socket.socket(socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, args.sndbuf)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(10)
    sock.connect((host.strip("[]"), int(port)))
    version, peer_type = handshake(sock)

    sock.settimeout(args.stall)
    sent, outcome, start = 0, None, time.monotonic()
    chunks = stream(args.stream, args.chunk, args.msg_size)
    pending = memoryview(b"")
    try:
        while sent < limit:
            if not pending:
                pending = memoryview(next(chunks))
            n = sock.send(pending[:limit - sent])
            sent += n
            pending = pending[n:]
    except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError) as e:
        outcome = "closed (%s)" % type(e).__name__
    except socket.timeout:
        outcome = "stalled (no progress for %gs, connection still open)" % args.stall
    elapsed = time.monotonic() - start
    print("stream=%s peer=ZMTP-%s/%s bytes_sent=%d (%.3f MiB) limit=%d seconds=%.2f outcome=%s"
          % (args.stream, version, peer_type, sent, sent / MIB, limit, elapsed, outcome or "all sent"))
    sys.stdout.flush()

    if outcome is None or outcome.startswith("stalled"):
        # Everything went out (or the peer stopped reading); the connection stays open --wait seconds (for a measurement): does the peer close it?
        sock.settimeout(args.wait)
        try:
            while True:
                if not sock.recv(65536):
                    outcome = "closed by the peer after our last byte (EOF)"
                    break
        except socket.timeout:
            outcome = "still open %gs after our last byte; closing it" % args.wait
        except (ConnectionResetError, ConnectionAbortedError) as e:
            outcome = "closed by the peer after our last byte (%s)" % type(e).__name__
        print("then: " + outcome)
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
