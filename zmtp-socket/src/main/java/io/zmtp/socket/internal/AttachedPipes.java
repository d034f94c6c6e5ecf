package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketOption;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The pipes a socket routes over, and the mailbox through which the I/O threads say that a pipe's connection came up
 * or went away. A pipe is attached (the socket type routes over it, from {@code xattach} to {@code xdetach}) from
 * connect when IMMEDIATE is off, else from its first CONNECTED event. When its connection goes away it is detached,
 * once the application has read what it had received ("draining"); a connecting pipe with IMMEDIATE off stays
 * attached instead, holding messages for its reconnection.
 *
 * <h2>Threads</h2>
 * I/O threads only add to the mailbox ({@link #connected}, {@link #disconnected}): lock-free, never blocking.
 * Everything else runs under the socket's lock, and the socket applies the mailbox ({@link #processEvents}) before
 * each operation, so the attached set and the socket type's routing state change together, and a pipe is routed over
 * only once its CONNECTED event has been applied. Invariant: {@code draining} is a subset of {@code attached} (a pipe
 * is added to it only while attached, and {@link #detach} takes it out of both).
 */
final class AttachedPipes {
    private enum EventType { CONNECTED, DISCONNECTED }

    private static final class PipeEvent {
        final EventType type;
        final Pipe pipe;

        PipeEvent(EventType type, Pipe pipe) {
            this.type = type;
            this.pipe = pipe;
        }
    }

    private final SocketBase socket;
    private final ConcurrentLinkedQueue<PipeEvent> events = new ConcurrentLinkedQueue<>();
    // under the lock
    private final Set<Pipe> attached = new LinkedHashSet<>();
    /** Attached pipes whose connection went away, kept until the application has read what they received. */
    private final List<Pipe> draining = new ArrayList<>();

    AttachedPipes(SocketBase socket) {
        this.socket = socket;
    }

    /** I/O thread: the pipe's connection completed its handshake. */
    void connected(Pipe pipe) {
        events.add(new PipeEvent(EventType.CONNECTED, pipe));
    }

    /** I/O thread: the pipe's connection closed. */
    void disconnected(Pipe pipe) {
        events.add(new PipeEvent(EventType.DISCONNECTED, pipe));
    }

    /**
     * Applies the events from the I/O threads. Lock held. Runs before every send and receive, so what it costs when
     * there is nothing to do is kept to one poll and one size check; the work is in {@link #apply}.
     */
    void processEvents() {
        PipeEvent e = events.poll();
        if (e != null || !draining.isEmpty()) {
            apply(e);
        }
    }

    private void apply(PipeEvent first) {
        for (PipeEvent e = first; e != null; e = events.poll()) {
            Pipe p = e.pipe;
            if (p.isTerminated()) {
                continue;
            }
            if (e.type == EventType.CONNECTED) {
                draining.remove(p);
                if (!attached.contains(p)) {
                    attach(p);
                }
                socket.xconnected(p);
            } else {
                if (!attached.contains(p)) {
                    continue;
                }
                socket.xdisconnected(p);
                if (!p.isConnecting() || socket.option(ZmtpSocketOption.IMMEDIATE)) {
                    if (p.hasInputToDrain()) {
                        draining.add(p);
                    } else {
                        detach(p);
                    }
                }
            }
        }
        if (!draining.isEmpty()) {
            for (Iterator<Pipe> it = draining.iterator(); it.hasNext(); ) {
                Pipe p = it.next();
                if (!p.hasInputToDrain() && !p.isActive()) {
                    it.remove();
                    detach(p);
                }
            }
        }
    }

    /** The pipe joins the socket's routing. Lock held. */
    void attach(Pipe p) {
        attached.add(p);
        socket.xattach(p);
    }

    /**
     * The pipe leaves the socket's routing; a connecting one stays alive for its connector (IMMEDIATE), dropping what
     * it queued for a peer now gone, any other is terminated. Lock held.
     */
    private void detach(Pipe p) {
        attached.remove(p);
        draining.remove(p);
        socket.xdetach(p);
        if (p.isConnecting()) {
            p.discardOutput();
        } else {
            p.terminate();
        }
    }

    /**
     * The application disconnected the pipe (disconnect, or a peer's disconnect): if attached, the socket type hears
     * that its connection went away, if it had one, and the pipe is detached. Lock held, events applied.
     */
    void disconnect(Pipe p) {
        if (attached.contains(p)) {
            if (p.isActive()) {
                socket.xdisconnected(p);
            }
            detach(p);
        }
    }

    /** The attached pipes, the draining ones included. Lock held. */
    Set<Pipe> set() {
        return attached;
    }

    /** The attached pipes and every pipe of {@code endpoints} (attached or not yet), each once, in that order. */
    Set<Pipe> withEndpoints(SocketEndpoints endpoints) {
        Set<Pipe> all = new LinkedHashSet<>(attached);
        endpoints.collectPipes(all);
        return all;
    }
}
