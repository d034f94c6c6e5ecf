package org.zeromq;

import java.io.Closeable;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watches a socket's events: {@link #add} the events wanted, {@link #start()}, then {@link #nextEvent} returns them
 * one at a time. Where JeroMQ runs an actor thread for it, this reads the socket's monitor endpoint directly (a
 * PAIR of the ZContext connected to an {@code inproc://} name), so no thread is started; calls come from one thread.
 */
public class ZMonitor implements Closeable {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** One event, as {@link #nextEvent} returns it. */
    public static final class ZEvent {
        public final Event type;
        public final int code;
        public final String address;
        /** The resolved value as text ({@link ZMQ.Event#resolveValue()}), or null. */
        public final String value;

        public ZEvent(ZMQ.Event event) {
            this.code = event.getEvent();
            this.address = event.getAddress();
            this.type = Event.findByCode(code);
            Object v = event.resolveValue();
            this.value = v == null ? null : v.toString();
        }

        @Override
        public String toString() {
            return "ZEvent [type=" + type + ", code=" + code + ", address=" + address + ", value=" + value + "]";
        }
    }

    /** The kinds of events, with libzmq's bits. */
    public enum Event {
        CONNECTED(ZMQ.EVENT_CONNECTED),
        CONNECT_DELAYED(ZMQ.EVENT_CONNECT_DELAYED),
        CONNECT_RETRIED(ZMQ.EVENT_CONNECT_RETRIED),
        LISTENING(ZMQ.EVENT_LISTENING),
        BIND_FAILED(ZMQ.EVENT_BIND_FAILED),
        ACCEPTED(ZMQ.EVENT_ACCEPTED),
        ACCEPT_FAILED(ZMQ.EVENT_ACCEPT_FAILED),
        CLOSED(ZMQ.EVENT_CLOSED),
        CLOSE_FAILED(ZMQ.EVENT_CLOSE_FAILED),
        DISCONNECTED(ZMQ.EVENT_DISCONNECTED),
        MONITOR_STOPPED(ZMQ.EVENT_MONITOR_STOPPED),
        HANDSHAKE_FAILED_NO_DETAIL(ZMQ.HANDSHAKE_FAILED_NO_DETAIL),
        HANDSHAKE_SUCCEEDED(ZMQ.HANDSHAKE_SUCCEEDED),
        HANDSHAKE_FAILED_PROTOCOL(ZMQ.HANDSHAKE_FAILED_PROTOCOL),
        HANDSHAKE_FAILED_AUTH(ZMQ.HANDSHAKE_FAILED_AUTH),
        HANDSHAKE_PROTOCOL(ZMQ.EVENT_HANDSHAKE_PROTOCOL),
        ALL(ZMQ.EVENT_ALL);

        private static final Map<Integer, Event> BY_CODE = new HashMap<>();

        static {
            for (Event e : values()) {
                BY_CODE.put(e.code, e);
            }
        }

        private final int code;

        Event(int code) {
            this.code = code;
        }

        /** The event with bit {@code event}; ALL for an unknown one. */
        public static Event findByCode(int event) {
            return BY_CODE.getOrDefault(event, ALL);
        }
    }

    /** The reasons of HANDSHAKE_FAILED_PROTOCOL, libzmq's numbers. */
    public enum ProtocolCode {
        ZMQ_PROTOCOL_ERROR_ZMTP_UNSPECIFIED(0x10000000),
        ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND(0x10000001),
        ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE(0x10000002),
        ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE(0x10000003),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_UNSPECIFIED(0x10000011),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE(0x10000012),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO(0x10000013),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE(0x10000014),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR(0x10000015),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY(0x10000016),
        ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME(0x10000017),
        ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA(0x10000018),
        ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC(0x11000001),
        ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH(0x11000002),
        ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED(0x20000000),
        ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY(0x20000001),
        ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID(0x20000002),
        ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION(0x20000003),
        ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE(0x20000004),
        ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA(0x20000005);

        private static final Map<Integer, ProtocolCode> BY_CODE = new HashMap<>();

        static {
            for (ProtocolCode c : values()) {
                BY_CODE.put(c.code, c);
            }
        }

        private final int code;

        ProtocolCode(int code) {
            this.code = code;
        }

        /** The reason with {@code code}; IllegalArgumentException for an unknown one. */
        public static ProtocolCode findByCode(int code) {
            ProtocolCode c = BY_CODE.get(code);
            if (c == null) {
                throw new IllegalArgumentException("Unknown " + ProtocolCode.class.getName() + " enum code: " + code);
            }
            return c;
        }
    }

    private final ZContext ctx;
    private final ZMQ.Socket monitored;
    private final Set<Event> events = EnumSet.noneOf(Event.class);
    private ZMQ.Socket reader;
    private boolean started;
    private boolean verbose;

    /** A monitor of {@code socket}, whose reading socket is made in {@code ctx}. */
    public ZMonitor(ZContext ctx, ZMQ.Socket socket) {
        this.ctx = java.util.Objects.requireNonNull(ctx, "ctx");
        this.monitored = java.util.Objects.requireNonNull(socket, "socket");
    }

    /** Starts monitoring the events added (all, if none was). */
    public final ZMonitor start() {
        if (started) {
            return this;
        }
        int mask = 0;
        for (Event e : events) {
            mask |= e.code;
        }
        String endpoint = "inproc://zmonitor-" + SEQUENCE.incrementAndGet();
        monitored.monitor(endpoint, mask == 0 ? ZMQ.EVENT_ALL : mask);
        reader = ctx.createSocket(SocketType.PAIR);
        reader.connect(endpoint);
        started = true;
        return this;
    }

    /** Stops the socket's monitor ({@code monitor(null, 0)}, as JeroMQ's does) and reading its events. */
    @Override
    public final void close() {
        if (started) {
            monitored.monitor(null, 0);
        }
        if (reader != null) {
            reader.close();
            reader = null;
        }
        started = false;
    }

    public final void destroy() {
        close();
    }

    /** When true, each event returned is also printed to standard output, as JeroMQ's verbose monitor does. */
    public final ZMonitor verbose(boolean verbose) {
        this.verbose = verbose;
        return this;
    }

    /** Adds events to monitor; only before {@link #start()}. */
    public final ZMonitor add(Event... added) {
        if (!started) {
            for (Event e : added) {
                events.add(e);
            }
        }
        return this;
    }

    /** Removes events to monitor; only before {@link #start()}. */
    public final ZMonitor remove(Event... removed) {
        if (!started) {
            for (Event e : removed) {
                events.remove(e);
            }
        }
        return this;
    }

    /** The next event, waiting for it. */
    public final ZEvent nextEvent() {
        return nextEvent(true);
    }

    /** The next event; waits if {@code wait}, else null when none is there. */
    public final ZEvent nextEvent(boolean wait) {
        return nextEvent(wait ? -1 : 0);
    }

    /** The next event, waiting up to {@code timeout} ms (-1: forever); null if none came. */
    public final ZEvent nextEvent(int timeout) {
        if (!started) {
            return null;
        }
        ZMQ.Event e;
        if (timeout == 0) {
            e = ZMQ.Event.recv(reader, ZMQ.DONTWAIT);
        } else {
            int before = reader.getReceiveTimeOut();
            reader.setReceiveTimeOut(timeout < 0 ? -1 : timeout);
            try {
                e = ZMQ.Event.recv(reader, 0);
            } finally {
                reader.setReceiveTimeOut(before);
            }
        }
        if (e == null) {
            return null;
        }
        ZEvent event = new ZEvent(e);
        if (verbose) {
            System.out.println("ZMonitor: " + event);
        }
        return event;
    }
}
