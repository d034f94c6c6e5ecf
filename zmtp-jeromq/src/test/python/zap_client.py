"""A libzmq (pyzmq) PUSH client for ZAuthLibzmqIT: connects with NULL, PLAIN or CURVE, sends one message, then waits
for the handshake's outcome on its monitor and prints it ("accepted" or "refused") before exiting. With
ZAP_CLIENT_HOLD set in its environment it stays connected until a line arrives on its standard input.

Usage: zap_client.py PORT MESSAGE NULL
       zap_client.py PORT MESSAGE PLAIN USER PASSWORD
       zap_client.py PORT MESSAGE CURVE CLIENT_PUBLIC CLIENT_SECRET SERVER_PUBLIC   (keys in Z85)
"""
import os
import sys

import zmq
from zmq.utils.monitor import recv_monitor_message

port, message, mechanism = sys.argv[1], sys.argv[2], sys.argv[3]
ctx = zmq.Context()
push = ctx.socket(zmq.PUSH)
push.linger = 2000
if mechanism == "PLAIN":
    push.plain_username = sys.argv[4].encode()
    push.plain_password = sys.argv[5].encode()
elif mechanism == "CURVE":
    push.curve_publickey = sys.argv[4].encode()
    push.curve_secretkey = sys.argv[5].encode()
    push.curve_serverkey = sys.argv[6].encode()
monitor = push.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_HANDSHAKE_FAILED_AUTH
                                  | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL)
monitor.rcvtimeo = 10000
push.connect("tcp://127.0.0.1:%s" % port)
push.send_string(message)
try:
    event = recv_monitor_message(monitor)["event"]
    outcome = "accepted" if event == zmq.EVENT_HANDSHAKE_SUCCEEDED else "refused"
except zmq.Again:
    outcome = "no handshake outcome"
print(outcome, flush=True)
if os.environ.get("ZAP_CLIENT_HOLD"):
    sys.stdin.readline()  # stays connected until the test has looked at the connection
if outcome != "accepted":
    push.linger = 0
push.disable_monitor()
monitor.close(linger=0)
push.close()
ctx.term()
