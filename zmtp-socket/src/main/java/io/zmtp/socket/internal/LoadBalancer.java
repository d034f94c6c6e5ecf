package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * Round-robin over pipes that can take a message now (rfc 28 "LB"). A message is whole, so a multipart message
 * always stays on one pipe. Not thread-safe: used under the socket lock.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class LoadBalancer {
    private final List<Pipe> pipes = new ArrayList<>();
    private int next;

    public void add(Pipe pipe) {
        if (!pipes.contains(pipe)) {
            pipes.add(pipe);
        }
    }

    public void remove(Pipe pipe) {
        int i = pipes.indexOf(pipe);
        if (i >= 0) {
            pipes.remove(i);
            if (next > i) {
                next--;
            }
            if (next >= pipes.size()) {
                next = 0;
            }
        }
    }

    public int size() {
        return pipes.size();
    }

    /** Whether a pipe could take a message without blocking. */
    public boolean hasRoom() {
        for (Pipe p : pipes) {
            if (eligible(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Queues {@code msg} on the next pipe with room and returns that pipe (which now owns the message), or null when
     * every pipe is full or there is none (the caller keeps ownership).
     */
    public Pipe send(ZmtpMessage msg) {
        int n = pipes.size();
        // Wrapped by comparison, not %: an integer division twice per message shows in a profile of small messages.
        int idx = next < n ? next : 0;
        for (int i = 0; i < n; i++) {
            Pipe p = pipes.get(idx);
            if (++idx == n) {
                idx = 0;
            }
            // offer checks the room itself: one look per message, not two.
            if ((p.isActive() || p.state() == Pipe.State.CONNECTING) && p.offer(msg)) {
                next = idx;
                return p;
            }
        }
        return null;
    }

    /**
     * The pipe a message that found no room would have gone to under round-robin (the next one that could queue if
     * it had room), advancing past it so that drops and evictions rotate too; null if there is none.
     */
    public Pipe victim() {
        int n = pipes.size();
        for (int i = 0; i < n; i++) {
            int idx = (next + i) % n;
            Pipe p = pipes.get(idx);
            if (p.state() != Pipe.State.TERMINATED && (p.isActive() || p.state() == Pipe.State.CONNECTING)) {
                next = (idx + 1) % n;
                return p;
            }
        }
        return null;
    }

    private static boolean eligible(Pipe p) {
        // A connecting pipe queues while its peer is down; an accepted pipe only while connected.
        return p.hasRoom() && (p.isActive() || p.state() == Pipe.State.CONNECTING);
    }
}
