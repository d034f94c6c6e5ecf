"""A scriptable libzmq peer for the Socket*IT tests: one process, any number of named sockets, driven by commands.

Usage: socket_peer.py [LIFETIME_SECONDS]   (default 120; the process kills itself after that, whatever it is doing)

Reads one command per line on stdin and answers each with one line on stdout, in order: 'OK ...', 'MSG ...',
'NONE' or 'ERR ...'. Exits on 'exit' or at the end of stdin. Frames are written in hex, '-' for an empty frame.

  version                         OK <libzmq> <pyzmq>
  new NAME TYPE [opt=value ...]   a socket; options: sndhwm rcvhwm rcvbuf sndbuf linger (ints), id sub (hex or -),
                                  verbose=1 (XPUB_VERBOSE). Every socket has SNDTIMEO 5 s, so no send hangs.
  bind NAME ENDPOINT              OK <endpoint bound>
  connect NAME ENDPOINT           OK
  send NAME FRAME...              OK, or ERR if it could not be queued within 5 s
  recv NAME MILLIS                MSG FRAME..., or NONE when nothing came within MILLIS
  sub NAME HEX / unsub NAME HEX   (UN)SUBSCRIBE option
  sendseq NAME COUNT TAG          sends [TAG, seq, payload(seq)] for seq < COUNT; OK sent=COUNT
  recvseq NAME COUNT TAG MILLIS   expects [.., TAG, seq, payload(seq)] for seq = 0..COUNT-1 in order, other tags
                                  ignored (a ROUTER's id frame too); MILLIS is the longest wait for one message
  echo NAME COUNT MILLIS          receives COUNT messages and sends each back as it is
  stream NAME COUNT WINDOW TAG MILLIS   sends [TAG, seq, payload(seq)] at most WINDOW ahead of the echoes it checks
  drain NAME IDLE_MILLIS [SKIP [MAX]]   receives until nothing comes for IDLE_MILLIS (or MAX messages came);
                                  OK total=N <tag>=<n>..., tag = frame SKIP (0: the first; 1 after a ROUTER's id),
                                  and checks that each tag's seq frames (the frame after the tag) increase
  zap RULE...                     binds a ZAP handler in this context: plain=USER:PASS, curve=Z85KEY, curveany=1;
                                  security options of new: plain_server=1 plain_username= plain_password=
                                  curve_server=1 curve_publickey= curve_secretkey= curve_serverkey= (Z85) zap_domain=
  zaplog                          OK MECH:USER:STATUS... for each ZAP request so far
  close NAME                      closes with linger 0
  exit
"""
import binascii
import signal
import sys
import threading
import time

import zmq
from zmq.utils import z85

PATTERN = bytes(j % 251 for j in range(512))
SEND_TIMEOUT_MS = 5000


def payload(seq):
    start = seq % 251
    return PATTERN[start:start + (seq * 7) % 200]


def enc(frames):
    return " ".join(binascii.hexlify(f).decode() if f else "-" for f in frames)


def dec(token):
    return b"" if token == "-" else binascii.unhexlify(token)


class Peer:
    def __init__(self):
        self.ctx = zmq.Context()
        self.sockets = {}

    def sock(self, name):
        s = self.sockets.get(name)
        if s is None:
            raise ValueError(f"no socket {name}")
        return s

    def recv(self, s, millis):
        if s.poll(millis, zmq.POLLIN) == 0:
            return None
        return s.recv_multipart(zmq.NOBLOCK)

    def send(self, s, frames):
        s.send_multipart(frames)  # SNDTIMEO raises zmq.Again rather than hanging

    def cmd_version(self):
        return f"OK {zmq.zmq_version()} {zmq.__version__}"

    def cmd_new(self, name, type_name, *opts):
        s = self.ctx.socket(getattr(zmq, type_name))
        s.setsockopt(zmq.SNDTIMEO, SEND_TIMEOUT_MS)
        s.setsockopt(zmq.LINGER, 1000)
        for o in opts:
            key, _, value = o.partition("=")
            if key in ("sndhwm", "rcvhwm", "rcvbuf", "sndbuf", "linger"):
                s.setsockopt(getattr(zmq, key.upper()), int(value))
            elif key == "id":
                s.setsockopt(zmq.ROUTING_ID, dec(value))
            elif key == "sub":
                s.setsockopt(zmq.SUBSCRIBE, dec(value))
            elif key == "verbose":
                s.setsockopt(zmq.XPUB_VERBOSE, int(value))
            elif key in ("plain_server", "curve_server"):
                s.setsockopt(getattr(zmq, key.upper()), int(value))
            elif key in ("plain_username", "plain_password", "zap_domain"):
                s.setsockopt(getattr(zmq, key.upper()), value.encode())
            elif key in ("curve_publickey", "curve_secretkey", "curve_serverkey"):
                s.setsockopt(getattr(zmq, key.upper()), value.encode())  # Z85, 40 characters
            else:
                raise ValueError(f"unknown option {o}")
        self.sockets[name] = s
        return "OK"

    def cmd_bind(self, name, endpoint):
        s = self.sock(name)
        s.bind(endpoint)
        return "OK " + s.getsockopt(zmq.LAST_ENDPOINT).decode()

    def cmd_connect(self, name, endpoint):
        self.sock(name).connect(endpoint)
        return "OK"

    def cmd_send(self, name, *frames):
        try:
            self.send(self.sock(name), [dec(f) for f in frames])
        except zmq.Again:
            return f"ERR send timed out after {SEND_TIMEOUT_MS} ms"
        return "OK"

    def cmd_recv(self, name, millis):
        frames = self.recv(self.sock(name), int(millis))
        return "NONE" if frames is None else ("MSG " + enc(frames)).rstrip()

    def cmd_sub(self, name, topic):
        self.sock(name).setsockopt(zmq.SUBSCRIBE, dec(topic))
        return "OK"

    def cmd_unsub(self, name, topic):
        self.sock(name).setsockopt(zmq.UNSUBSCRIBE, dec(topic))
        return "OK"

    def cmd_sendseq(self, name, count, tag):
        s, tag = self.sock(name), tag.encode()
        for seq in range(int(count)):
            try:
                self.send(s, [tag, str(seq).encode(), payload(seq)])
            except zmq.Again:
                return f"ERR send {seq} timed out after {SEND_TIMEOUT_MS} ms"
        return f"OK sent={count}"

    def cmd_recvseq(self, name, count, tag, millis):
        s, tag, count, millis = self.sock(name), tag.encode(), int(count), int(millis)
        seq = ignored = 0
        while seq < count:
            frames = self.recv(s, millis)
            if frames is None:
                return f"ERR nothing for {millis} ms after {seq} messages"
            if len(frames) < 3 or frames[-3] != tag:
                ignored += 1
                continue
            error = check(frames[-3:], tag, seq)
            if error:
                return "ERR " + error
            seq += 1
        return f"OK received={seq} ignored={ignored}"

    def cmd_echo(self, name, count, millis):
        s, count, millis = self.sock(name), int(count), int(millis)
        for i in range(count):
            frames = self.recv(s, millis)
            if frames is None:
                return f"ERR nothing for {millis} ms after {i} messages"
            try:
                self.send(s, frames)
            except zmq.Again:
                return f"ERR echo {i} timed out"
        return f"OK echoed={count}"

    def cmd_stream(self, name, count, window, tag, millis):
        s, count, window, tag, millis = self.sock(name), int(count), int(window), tag.encode(), int(millis)
        sent = received = 0
        while received < count:
            while sent < count and sent - received < window:
                try:
                    self.send(s, [tag, str(sent).encode(), payload(sent)])
                except zmq.Again:
                    return f"ERR send {sent} timed out"
                sent += 1
            frames = self.recv(s, millis)
            if frames is None:
                return f"ERR no echo for {millis} ms after {received} of {sent} sent"
            error = check(frames[-3:], tag, received)
            if error:
                return "ERR " + error
            received += 1
        return f"OK streamed={count}"

    def cmd_drain(self, name, idle_millis, skip="0", maximum="-1"):
        s, idle, skip, maximum = self.sock(name), int(idle_millis), int(skip), int(maximum)
        counts, last = {}, {}
        total = 0
        while total != maximum:
            frames = self.recv(s, idle)
            if frames is None:
                break
            total += 1
            frames = frames[skip:]
            tag = frames[0].decode("latin-1") or "-"
            counts[tag] = counts.get(tag, 0) + 1
            if len(frames) >= 2 and frames[1].isdigit():
                seq = int(frames[1])
                if seq <= last.get(tag, -1):
                    return f"ERR tag {tag}: seq {seq} after {last[tag]}"
                last[tag] = seq
        return (f"OK total={total} " + " ".join(f"{k}={v}" for k, v in sorted(counts.items()))).rstrip()

    def cmd_zap(self, *rules):
        """A ZAP handler (rfc 27) at inproc://zeromq.zap.01: plain=USER:PASS, curve=Z85KEY, curveany=1."""
        plain, keys, any_key = {}, set(), False
        for r in rules:
            key, _, value = r.partition("=")
            if key == "plain":
                user, _, password = value.partition(":")
                plain[user.encode()] = password.encode()
            elif key == "curve":
                keys.add(z85.decode(value.encode()))
            elif key == "curveany":
                any_key = value == "1"
            else:
                raise ValueError(f"unknown ZAP rule {r}")
        handler = self.ctx.socket(zmq.REP)
        handler.linger = 0
        handler.bind("inproc://zeromq.zap.01")
        self.zap_requests = []

        def serve():
            while True:
                try:
                    request = handler.recv_multipart()
                except zmq.ContextTerminated:
                    handler.close()
                    return
                version, request_id, domain, address, identity, mechanism = request[:6]
                credentials = request[6:]
                user, ok = b"", False
                if mechanism == b"PLAIN":
                    user = credentials[0]
                    ok = plain.get(user) == credentials[1]
                elif mechanism == b"CURVE":
                    user = z85.encode(credentials[0])
                    ok = any_key or credentials[0] in keys
                elif mechanism == b"NULL":
                    ok = True
                self.zap_requests.append(f"{mechanism.decode()}:{user.decode()}:{'200' if ok else '400'}")
                handler.send_multipart([version, request_id, b"200" if ok else b"400",
                                        b"OK" if ok else b"denied", user if ok else b"", b""])

        threading.Thread(target=serve, daemon=True).start()
        return "OK"

    def cmd_zaplog(self):
        return "OK " + " ".join(getattr(self, "zap_requests", []))

    def cmd_close(self, name):
        s = self.sockets.pop(name)
        s.close(linger=0)
        return "OK"


def check(frames, tag, seq):
    if len(frames) != 3 or frames[0] != tag:
        return f"message {seq}: frames {frames[:3]!r}"
    if frames[1] != str(seq).encode():
        return f"expected seq {seq}, got {frames[1][:20]!r}"
    if frames[2] != payload(seq):
        return f"message {seq}: payload of {len(frames[2])} bytes differs"
    return None


def main():
    lifetime = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    # Never outlive a test that forgot us: SIGALRM's default action ends the process.
    signal.alarm(lifetime)
    peer = Peer()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "exit":
            break
        try:
            reply = getattr(peer, "cmd_" + words[0])(*words[1:])
        except Exception as e:  # noqa: BLE001 - every failure becomes an answer the test can show
            reply = "ERR " + repr(e).replace("\n", " ")
        print(reply, flush=True)
    for s in peer.sockets.values():
        s.close(linger=0)
    peer.ctx.term()


if __name__ == "__main__":
    main()
