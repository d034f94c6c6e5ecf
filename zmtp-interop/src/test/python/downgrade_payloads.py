"""Payloads of the ZMTP 1.0/2.0 downgrade interop tests; the same bytes as LegacyPayloads.java and the Spotify peer.

Message i of direction dir (0: old peer -> codec under test, 1: the other way) is 1 to 4 frames of 0..256 bytes.
"""

FROM_PEER = 0
TO_PEER = 1


def message(direction, seed, i):
    frames = []
    for j in range(1 + i % 4):
        length = (i * 131 + j * 71 + seed * 17 + direction * 29) % 257
        base = direction * 101 + i * 31 + j * 7 + seed
        frames.append(bytes((base + k) & 0xFF for k in range(length)))
    return frames
