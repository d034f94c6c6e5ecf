package io.zmtp.socket.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.zmtp.socket.ZmtpSocket;

import java.util.Objects;

/**
 * A socket's counters and gauges in Micrometer: {@code new ZmtpSocketMetrics(socket, "orders").bindTo(registry)}.
 * Micrometer is an optional dependency of {@code zmtp-socket}: only this class refers to it, so an application
 * without Micrometer never loads it and pays nothing.
 *
 * <table>
 *   <caption>Meters (each tagged {@code socket=<name>}, {@code type=<socket type>} and the tags given)</caption>
 *   <tr><th>name</th><th>kind</th><th>what</th></tr>
 *   <tr><td>{@code zmtp.socket.messages.sent}</td><td>counter</td><td>messages written to connections</td></tr>
 *   <tr><td>{@code zmtp.socket.messages.received}</td><td>counter</td><td>messages read from connections</td></tr>
 *   <tr><td>{@code zmtp.socket.messages.dropped}</td><td>counter</td><td>messages dropped (overflow policy,
 *       unroutable, cleared, discarded with a lost peer)</td></tr>
 *   <tr><td>{@code zmtp.socket.peers}</td><td>gauge</td><td>peers now ({@link ZmtpSocket#peers()})</td></tr>
 *   <tr><td>{@code zmtp.socket.queued.messages}, tag {@code direction=out|in}</td><td>gauge</td>
 *       <td>messages queued for peers / received and not yet taken</td></tr>
 *   <tr><td>{@code zmtp.socket.queued.bytes}, tag {@code direction=out|in}</td><td>gauge</td>
 *       <td>the same in bytes (frames' content)</td></tr>
 * </table>
 *
 * <p>The socket is held weakly by the gauges (Micrometer's default), strongly by the counters' functions; a
 * closed socket reports its last counts and empty queues. Each reading of a gauge takes the socket's lock briefly.
 */
public final class ZmtpSocketMetrics implements MeterBinder {
    private final ZmtpSocket socket;
    private final Tags tags;

    /**
     * @param socket the socket to measure
     * @param name   what to call it in the {@code socket} tag (e.g. "orders-in")
     * @param tags   more tags for every meter
     */
    public ZmtpSocketMetrics(ZmtpSocket socket, String name, Iterable<Tag> tags) {
        this.socket = Objects.requireNonNull(socket, "socket");
        this.tags = Tags.of(tags).and("socket", Objects.requireNonNull(name, "name"), "type", socket.type().name());
    }

    /** As {@link #ZmtpSocketMetrics(ZmtpSocket, String, Iterable)} with no more tags. */
    public ZmtpSocketMetrics(ZmtpSocket socket, String name) {
        this(socket, name, Tags.empty());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("zmtp.socket.messages.sent", socket, ZmtpSocket::sentCount)
                .description("Messages written to the socket's connections").tags(tags).register(registry);
        FunctionCounter.builder("zmtp.socket.messages.received", socket, ZmtpSocket::receivedCount)
                .description("Messages read from the socket's connections").tags(tags).register(registry);
        FunctionCounter.builder("zmtp.socket.messages.dropped", socket, ZmtpSocket::droppedCount)
                .description("Messages dropped: overflow policy, unroutable, cleared, or with a lost peer")
                .tags(tags).register(registry);
        Gauge.builder("zmtp.socket.peers", socket, s -> s.peers().size())
                .description("The socket's peers").tags(tags).register(registry);
        Gauge.builder("zmtp.socket.queued.messages", socket, ZmtpSocket::outgoingMessages)
                .description("Messages queued for peers").tags(tags).tag("direction", "out").register(registry);
        Gauge.builder("zmtp.socket.queued.messages", socket, ZmtpSocket::incomingMessages)
                .description("Messages received and not yet taken").tags(tags).tag("direction", "in")
                .register(registry);
        Gauge.builder("zmtp.socket.queued.bytes", socket, ZmtpSocket::outgoingBytes)
                .description("Bytes queued for peers").baseUnit("bytes").tags(tags).tag("direction", "out")
                .register(registry);
        Gauge.builder("zmtp.socket.queued.bytes", socket, ZmtpSocket::incomingBytes)
                .description("Bytes received and not yet taken").baseUnit("bytes").tags(tags).tag("direction", "in")
                .register(registry);
    }
}
