package org.zeromq;

import org.zeromq.ZMonitor.Event;

import java.time.Duration;
import java.util.Objects;

/**
 * A monitor event with its value resolved (JeroMQ's ZEvent), read from a monitor socket with {@link #recv}. Where
 * JeroMQ resolves a connection event's value to its {@code SelectableChannel}, the value here is null: netty-zmtp
 * doesn't expose its channels. {@code ZEventConsummer} and {@code Socket.setEventHook}, which take JeroMQ's internal
 * event type, are absent; {@link ZMQ.Socket#zmtpSocket()}'s {@code monitor(Consumer)} is the equivalent.
 */
public class ZEvent {
    private final Event event;
    private final Object value;
    private final String address;

    ZEvent(Event event, Object value, String address) {
        this.event = event;
        this.value = value;
        this.address = address;
    }

    /** The kind of event. */
    public Event getEvent() {
        return event;
    }

    /**
     * The value: a {@link ZMQ.Error} for the failures, a {@link ZMonitor.ProtocolCode} for
     * HANDSHAKE_FAILED_PROTOCOL, a {@link Duration} for CONNECT_RETRIED, null for the others.
     */
    @SuppressWarnings("unchecked")
    public <M> M getValue() {
        return (M) value;
    }

    public String getAddress() {
        return address;
    }

    public boolean isError() {
        switch (event) {
            case BIND_FAILED:
            case ACCEPT_FAILED:
            case CLOSE_FAILED:
            case HANDSHAKE_FAILED_NO_DETAIL:
            case HANDSHAKE_FAILED_PROTOCOL:
                return true;
            default:
                return false;
        }
    }

    public boolean isWarn() {
        return event == Event.HANDSHAKE_FAILED_AUTH;
    }

    public boolean isInformation() {
        return event == Event.DISCONNECTED;
    }

    public boolean isDebug() {
        switch (event) {
            case CONNECTED:
            case CONNECT_DELAYED:
            case CONNECT_RETRIED:
            case LISTENING:
            case ACCEPTED:
            case CLOSED:
            case MONITOR_STOPPED:
            case HANDSHAKE_SUCCEEDED:
            case HANDSHAKE_PROTOCOL:
                return true;
            default:
                return false;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        ZEvent other = (ZEvent) o;
        return event == other.event && Objects.equals(value, other.value) && Objects.equals(address, other.address);
    }

    @Override
    public int hashCode() {
        return Objects.hash(event, value, address);
    }

    @Override
    public String toString() {
        return "ZEvent{event=" + event + ", value=" + value + ", address='" + address + "'}";
    }

    /** The next event on monitor socket {@code socket}; null with DONTWAIT when there is none. */
    public static ZEvent recv(ZMQ.Socket socket, int flags) {
        ZMQ.Event e = ZMQ.Event.recv(socket, flags);
        if (e == null) {
            return null;
        }
        Event kind = Event.findByCode(e.getEvent());
        Object value;
        switch (kind) {
            case CONNECT_RETRIED:
                value = Duration.ofMillis(((Integer) e.getValue()).longValue());
                break;
            case HANDSHAKE_FAILED_AUTH:
                value = e.getValue();
                break;
            default:
                value = e.resolveValue();
        }
        return new ZEvent(kind, value, e.getAddress());
    }

    public static ZEvent recv(ZMQ.Socket socket) {
        return recv(socket, 0);
    }
}
