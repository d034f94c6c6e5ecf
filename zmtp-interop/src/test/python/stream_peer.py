"""libzmq STREAM peer, for our STREAM socket (raw tcp on both sides, no ZMTP).

Usage: stream_peer.py server             binds tcp://127.0.0.1:*, prints 'ENDPOINT <address>'; for the one client
                                         that connects prints 'CONNECTED', answers each chunk with 'echo:<chunk>'
                                         until it has seen 'bye', then hangs up (an empty frame), prints 'CLOSED'.
       stream_peer.py client ENDPOINT    connects, prints 'CONNECTED' on libzmq's connect notice, sends 'hello',
                                         prints 'RECV <text>' for what comes back until the server hangs up, then
                                         'DISCONNECTED'.
Exits non-zero if nothing arrives within 10 s, so a broken test never leaves it running.
"""
import sys

import zmq


def main():
    role = sys.argv[1]
    ctx = zmq.Context()
    sock = ctx.socket(zmq.STREAM)
    sock.setsockopt(zmq.LINGER, 1000)
    sock.setsockopt(zmq.RCVTIMEO, 10_000)
    if role == "server":
        sock.bind("tcp://127.0.0.1:*")
        print("ENDPOINT", sock.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)
        seen = b""
        while True:
            peer, data = sock.recv_multipart()
            if not data:
                if seen:
                    break
                print("CONNECTED", flush=True)
                continue
            seen += data
            sock.send_multipart([peer, b"echo:" + data])
            if seen.endswith(b"bye"):
                sock.send_multipart([peer, b""])
                print("CLOSED", flush=True)
                break
    else:
        sock.connect(sys.argv[2])
        peer, data = sock.recv_multipart()
        assert data == b"", data
        print("CONNECTED", flush=True)
        sock.send_multipart([peer, b"hello"])
        while True:
            peer2, data = sock.recv_multipart()
            if not data:
                print("DISCONNECTED", flush=True)
                break
            print("RECV", data.decode(), flush=True)
    sock.close()
    ctx.term()


if __name__ == "__main__":
    main()
