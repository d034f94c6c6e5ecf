"""A ZMTP 3.1 peer done by hand over a raw TCP socket that goes silent after the handshake.

Usage: silent_peer.py SOCKET_TYPE
Listens on 127.0.0.1 (prints 'ENDPOINT tcp://127.0.0.1:<port>'), accepts one connection, sends a NULL greeting and
READY (Socket-Type SOCKET_TYPE, empty Identity), reads the peer's greeting and READY, then sends nothing more and
just reads until the peer closes. Prints 'RESULT OK closed=1 pings=N' (N = PING commands received while silent),
or 'RESULT FAIL ...' if the peer has not closed within 20 s.
"""
import socket
import struct
import sys
import time

import payloads


def command(name, body):
    data = bytes([len(name)]) + name + body
    return (bytes([0x04, len(data)]) if len(data) <= 255 else b"\x06" + struct.pack(">Q", len(data))) + data


def read_exactly(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError(f"closed after {len(data)} of {n} bytes")
        data += chunk
    return data


def read_frame(conn):
    flags = read_exactly(conn, 1)[0]
    size = struct.unpack(">Q", read_exactly(conn, 8))[0] if flags & 0x02 else read_exactly(conn, 1)[0]
    return flags, read_exactly(conn, size)


def main():
    if len(sys.argv) != 2:
        payloads.usage_exit(__doc__)
    socket_type = sys.argv[1].encode()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    print("ENDPOINT", f"tcp://127.0.0.1:{server.getsockname()[1]}", flush=True)
    conn, _ = server.accept()
    conn.settimeout(10)
    greeting = b"\xff" + bytes(8) + b"\x7f" + b"\x03\x01" + b"NULL".ljust(20, b"\0") + b"\x00" + bytes(31)
    ready = command(b"READY", b"\x0bSocket-Type" + struct.pack(">I", len(socket_type)) + socket_type
                    + b"\x08Identity" + struct.pack(">I", 0))
    conn.sendall(greeting + ready)
    theirs = read_exactly(conn, 64)
    flags, body = read_frame(conn)
    if theirs[0] != 0xFF or flags != 0x04 or not body.startswith(b"\x05READY"):
        sys.exit(payloads.result(False, error="unexpected greeting or READY", got=(theirs + body).hex()))
    # Silent from here on: read (so the peer's PINGs don't fill buffers) and never answer.
    pings = 0
    deadline = time.monotonic() + 20
    closed = False
    try:
        while time.monotonic() < deadline:
            flags, body = read_frame(conn)
            if flags & 0x04 and body.startswith(b"\x04PING"):
                pings += 1
    except socket.timeout:
        closed = False
    except (EOFError, OSError):
        closed = True  # orderly close or reset
    conn.close()
    server.close()
    sys.exit(payloads.result(closed, closed=int(closed), pings=pings))


if __name__ == "__main__":
    main()
