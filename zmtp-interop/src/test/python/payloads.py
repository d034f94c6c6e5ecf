"""Deterministic test messages, computed identically by io.zmtp.interop.Payloads on the Java side.

Message i (0-based) of a run with SEED has 1 to 3 frames; frame f has a size drawn from SIZES (frame 0 of every
1000th message, i % 1000 == 999, is 1 MiB) and is a slice of a seeded 2 MiB pattern at a position drawn from
(seed, i, f). Any reordering, truncation, shift or corruption of a frame changes what the receiver compares.
"""

SIZES = (0, 1, 10, 100, 255, 256, 1000, 8191, 8192, 65536)
BIG = 1 << 20
PATTERN_LENGTH = 2 << 20
TOPIC = b"data"
SKIP_TOPIC = b"skip"
WARMUP_TOPIC = b"data-warmup"


def mix(*values):
    """32-bit FNV-1a over 32-bit words, with a final fold (Payloads.mix)."""
    h = 0x811C9DC5
    for v in values:
        h = ((h ^ (v & 0xFFFFFFFF)) * 0x01000193) & 0xFFFFFFFF
    return h ^ (h >> 16)


def pattern(seed):
    """P[k] = (k + 37 * (k >> 8) + 101 * (k >>16) + 59 * seed) & 0xFF, built one 256-byte row at a time."""
    base = bytes(range(256)) * 2
    rows = []
    for hi in range(PATTERN_LENGTH >> 8):
        c = (37 * hi + 101 * (hi >> 8) + 59 * seed) & 0xFF
        rows.append(base[c:c + 256])
    return b"".join(rows)


def frame_specs(seed, i):
    """[(offset, size)] of message i's frames."""
    frames = 1 + mix(seed, i) % 3
    specs = []
    for f in range(frames):
        size = BIG if (f == 0 and i % 1000 == 999) else SIZES[mix(seed, i, f, 1) % len(SIZES)]
        specs.append((mix(seed, i, f, 2) % BIG, size))
    return specs


class Messages:
    def __init__(self, seed):
        self.seed = seed
        self.pattern = pattern(seed)

    def frames(self, i):
        p = self.pattern
        return [p[off:off + size] for off, size in frame_specs(self.seed, i)]

    def check(self, i, frames):
        """None if frames are message i, else a description of the first difference."""
        specs = frame_specs(self.seed, i)
        if len(frames) != len(specs):
            return f"message {i}: {len(frames)} frames (expected {len(specs)})"
        p = self.pattern
        for f, ((off, size), got) in enumerate(zip(specs, frames)):
            if len(got) != size:
                return f"message {i} frame {f}: {len(got)} bytes (expected {size})"
            if got != p[off:off + size]:
                return f"message {i} frame {f}: content differs"
        return None




def versions_line():
    import zmq
    return f"PEER libzmq {zmq.zmq_version()} pyzmq {zmq.__version__}"


def usage_exit(doc):
    import sys
    print(doc.strip(), file=sys.stderr)
    sys.exit(2)


def attach(sock, endpoint, mode):
    """Binds (then prints 'ENDPOINT <address>', so the test learns the port) or connects."""
    import zmq
    if mode == "bind":
        sock.bind(endpoint)
        print("ENDPOINT", sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
    elif mode == "connect":
        sock.connect(endpoint)
    else:
        raise SystemExit(f"mode must be bind or connect, not {mode!r}")


def result(ok, **fields):
    """Prints the line the Java test waits for and returns the exit status."""
    text = " ".join(f"{k}={v}" for k, v in fields.items())
    print("RESULT", "OK" if ok else "FAIL", text, flush=True)
    return 0 if ok else 1
