package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Takes whole messages round-robin from the pipes that have input (rfc 28 "FQ"), so one busy peer can't starve the
 * others. Used under the socket lock, except {@link #wake}.
 *
 * <h2>Active pipes</h2>
 * As libzmq's {@code fq_t}, only pipes that may have input are visited: {@code pipes[0, active)}. A pipe found empty
 * moves past {@code active} and is skipped until it gets input, so a ROUTER with 10,000 mostly quiet peers looks at
 * the few that sent something, not at all of them per message. Positions change by swaps; each pipe knows its own
 * ({@code Pipe.fairQueueIndex}), so nothing here searches the list.
 *
 * <h2>Wake-ups</h2>
 * A pipe found empty is marked idle ({@code Pipe.markReadIdle}) and then looked at once more; whoever gives a pipe
 * input signals it afterwards, and the signal of an idle pipe clears the mark (an atomic swap, so once) and puts the
 * pipe on {@code woken}, which the lock holder takes back into the active pipes before it reads. Both the mark and the
 * input are volatile, so either the second look finds the input or the signal finds the mark: an idle pipe with input
 * is always woken.
 *
 * <p>{@code woken} is a lock-free stack linked through the pipes themselves ({@code Pipe.nextWoken}): pushed with a
 * CAS by whoever signals, emptied whole with a swap by the lock holder, so a wake-up allocates nothing (a latency-bound
 * flow wakes its pipe once per message). A pipe is on it at most once: only the signal that clears its mark pushes it,
 * and the mark is set again only by a later {@link #recv}, which first empties the stack.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class FairQueue {
    private final List<Pipe> pipes = new ArrayList<>();
    private int active;
    private int next;
    private Pipe last;
    /** The top of the stack of idle pipes that got input (any thread pushes; the lock holder takes all). */
    private final AtomicReference<Pipe> woken = new AtomicReference<>();

    public void add(Pipe pipe) {
        if (pipe.fairQueue() == this) {
            return;
        }
        pipe.fairQueue(this, pipes.size());
        pipes.add(pipe);
        // New pipes start active: whatever they hold is found on the next look.
        pipe.clearReadIdle();
        swap(pipe.fairQueueIndex(), active);
        active++;
    }

    public void remove(Pipe pipe) {
        if (pipe.fairQueue() != this) {
            return;
        }
        int i = pipe.fairQueueIndex();
        if (i < active) {
            active--;
            swap(i, active);
            i = active;
        }
        int lastIndex = pipes.size() - 1;
        swap(i, lastIndex);
        pipes.remove(lastIndex);
        pipe.fairQueue(null, -1);
        if (next >= active) {
            next = 0;
        }
        if (last == pipe) {
            last = null;
        }
    }

    /** From the thread that gave an idle pipe input, after its signal cleared the idle mark. */
    void wake(Pipe pipe) {
        Pipe top;
        do {
            top = woken.get();
            pipe.nextWoken = top;
        } while (!woken.compareAndSet(top, pipe));
    }

    public boolean hasInput() {
        takeWoken();
        for (int i = 0; i < active; i++) {
            if (pipes.get(i).hasInput()) {
                return true;
            }
        }
        return false;
    }

    /** The next message in fair order (the caller owns it), or null. {@link #lastPipe()} says where it came from. */
    public ZmtpMessage recv() {
        takeWoken();
        // Each active pipe is looked at once at most: one that says it has input but gives none (an inproc queue a
        // transfer holds for a moment) stays active for the next call.
        for (int tries = active; tries > 0 && active > 0; tries--) {
            if (next >= active) {
                next = 0;
            }
            Pipe p = pipes.get(next);
            ZmtpMessage m = p.poll();
            if (m != null) {
                next++;
                last = p;
                return m;
            }
            p.markReadIdle();
            if (p.hasInput()) {
                p.clearReadIdle();
                next++;
            } else {
                active--;
                swap(next, active);
            }
        }
        return null;
    }

    /** The pipe the last message from {@link #recv()} came from. */
    public Pipe lastPipe() {
        return last;
    }

    private void takeWoken() {
        if (woken.get() == null) {
            return;
        }
        Pipe p = woken.getAndSet(null);
        while (p != null) {
            Pipe next = p.nextWoken;
            p.nextWoken = null;
            if (p.fairQueue() == this) {
                int i = p.fairQueueIndex();
                if (i >= active) {
                    swap(i, active);
                    active++;
                }
            }
            p = next;
        }
    }

    private void swap(int i, int j) {
        if (i == j) {
            return;
        }
        Pipe a = pipes.get(i);
        Pipe b = pipes.get(j);
        pipes.set(i, b);
        pipes.set(j, a);
        a.fairQueueIndex(j);
        b.fairQueueIndex(i);
    }
}
