package org.zeromq;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;

import java.nio.charset.StandardCharsets;

/**
 * Reads libzmq's monitor events for {@link ZMQ.Event#recv}: a 6-byte frame (the event as a little-endian u16, its
 * value as a little-endian u32), then a frame with the endpoint.
 */
final class EventReader {
    /** Linux's numbers in BIND_FAILED/ACCEPT_FAILED values, as libzmq (and netty-zmtp's monitor) send them. */
    private static final int LINUX_EADDRINUSE = 98;
    private static final int LINUX_EMFILE = 24;

    private EventReader() {
    }

    static ZMQ.Event read(ZMQ.Socket socket, int flags) {
        ZmtpMessage m = socket.receiveWhole(flags);
        if (m == null) {
            return null;
        }
        try {
            if (m.size() != 2 || m.frame(0).readableBytes() != 6) {
                return null;
            }
            ByteBuf head = m.frame(0);
            int event = head.getUnsignedShortLE(head.readerIndex());
            int value = head.getIntLE(head.readerIndex() + 2);
            String address = m.frame(1).toString(StandardCharsets.UTF_8);
            return new ZMQ.Event(event, value, resolve(event, value), address);
        } finally {
            m.release();
        }
    }

    private static Object resolve(int event, int value) {
        switch (event) {
            case ZMQ.HANDSHAKE_FAILED_PROTOCOL:
                return ZMonitor.ProtocolCode.findByCode(value);
            case ZMQ.EVENT_BIND_FAILED:
            case ZMQ.EVENT_ACCEPT_FAILED:
            case ZMQ.EVENT_CLOSE_FAILED:
            case ZMQ.HANDSHAKE_FAILED_NO_DETAIL:
                return errorOf(value);
            case ZMQ.EVENT_CONNECTED:
            case ZMQ.EVENT_LISTENING:
            case ZMQ.EVENT_ACCEPTED:
            case ZMQ.EVENT_CLOSED:
            case ZMQ.EVENT_DISCONNECTED:
            case ZMQ.EVENT_CONNECT_DELAYED:
            case ZMQ.HANDSHAKE_SUCCEEDED:
            case ZMQ.EVENT_MONITOR_STOPPED:
                return null;
            default:
                return value;
        }
    }

    private static ZMQ.Error errorOf(int linuxErrno) {
        switch (linuxErrno) {
            case LINUX_EADDRINUSE:
                return ZMQ.Error.EADDRINUSE;
            case LINUX_EMFILE:
                return ZMQ.Error.EMFILE;
            case 0:
                return ZMQ.Error.NOERROR;
            default:
                return ZMQ.Error.EPROTO;
        }
    }
}
