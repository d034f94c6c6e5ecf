package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes whole messages round-robin from the pipes that have input (rfc 28 "FQ"), so one busy peer can't starve the
 * others. Not thread-safe: used under the socket lock.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class FairQueue {
    private final List<Pipe> pipes = new ArrayList<>();
    private int next;
    private Pipe last;

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
        if (last == pipe) {
            last = null;
        }
    }

    public boolean hasInput() {
        for (Pipe p : pipes) {
            if (p.hasInput()) {
                return true;
            }
        }
        return false;
    }

    /** The next message in fair order (the caller owns it), or null. {@link #lastPipe()} says where it came from. */
    public ZmtpMessage recv() {
        int n = pipes.size();
        // Wrapped by comparison, not %: an integer division twice per message shows in a profile of small messages.
        int idx = next < n ? next : 0;
        for (int i = 0; i < n; i++) {
            Pipe p = pipes.get(idx);
            if (++idx == n) {
                idx = 0;
            }
            ZmtpMessage m = p.poll();
            if (m != null) {
                next = idx;
                last = p;
                return m;
            }
        }
        return null;
    }

    /** The pipe the last message from {@link #recv()} came from. */
    public Pipe lastPipe() {
        return last;
    }
}
