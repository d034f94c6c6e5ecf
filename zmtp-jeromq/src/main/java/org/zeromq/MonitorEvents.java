package org.zeromq;

import io.zmtp.socket.ZmtpSocketEvent;

import java.util.EnumSet;
import java.util.Set;

/**
 * JeroMQ's {@code ZMQ.EVENT_*} masks in terms of netty-zmtp's event types. The numbers are libzmq's (and JeroMQ's)
 * up to HANDSHAKE_FAILED_AUTH; netty-zmtp has no CLOSE_FAILED, and JeroMQ's own HANDSHAKE_PROTOCOL is never sent.
 */
final class MonitorEvents {
    private MonitorEvents() {
    }

    static ZmtpSocketEvent.Type[] types(int mask) {
        Set<ZmtpSocketEvent.Type> set = EnumSet.noneOf(ZmtpSocketEvent.Type.class);
        add(set, mask, ZMQ.EVENT_CONNECTED, ZmtpSocketEvent.Type.CONNECTED);
        add(set, mask, ZMQ.EVENT_CONNECT_DELAYED, ZmtpSocketEvent.Type.CONNECT_DELAYED);
        add(set, mask, ZMQ.EVENT_CONNECT_RETRIED, ZmtpSocketEvent.Type.CONNECT_RETRIED);
        add(set, mask, ZMQ.EVENT_LISTENING, ZmtpSocketEvent.Type.LISTENING);
        add(set, mask, ZMQ.EVENT_BIND_FAILED, ZmtpSocketEvent.Type.BIND_FAILED);
        add(set, mask, ZMQ.EVENT_ACCEPTED, ZmtpSocketEvent.Type.ACCEPTED);
        add(set, mask, ZMQ.EVENT_ACCEPT_FAILED, ZmtpSocketEvent.Type.ACCEPT_FAILED);
        add(set, mask, ZMQ.EVENT_CLOSED, ZmtpSocketEvent.Type.CLOSED);
        add(set, mask, ZMQ.EVENT_DISCONNECTED, ZmtpSocketEvent.Type.DISCONNECTED);
        add(set, mask, ZMQ.EVENT_MONITOR_STOPPED, ZmtpSocketEvent.Type.MONITOR_STOPPED);
        add(set, mask, ZMQ.HANDSHAKE_SUCCEEDED, ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED);
        add(set, mask, ZMQ.HANDSHAKE_FAILED_NO_DETAIL | ZMQ.HANDSHAKE_FAILED_PROTOCOL | ZMQ.HANDSHAKE_FAILED_AUTH,
                ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        if (set.isEmpty()) {
            // netty-zmtp reads "no types" as "all"; a mask of none of its events must send nothing but the stop.
            set.add(ZmtpSocketEvent.Type.MONITOR_STOPPED);
        }
        return set.toArray(new ZmtpSocketEvent.Type[0]);
    }

    private static void add(Set<ZmtpSocketEvent.Type> set, int mask, int bits, ZmtpSocketEvent.Type type) {
        if ((mask & bits) != 0) {
            set.add(type);
        }
    }
}
