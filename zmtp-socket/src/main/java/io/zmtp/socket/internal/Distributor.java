package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.function.Consumer;

/**
 * Fan-out (PUB, XPUB, XSUB): gives each chosen pipe its own message sharing the frames' memory; a pipe at its HWM
 * misses the message and counts a drop. Never blocks.
 */
public final class Distributor {
    private long dropped;
    /** DROP_OLDEST: a full pipe makes room by dropping its oldest message. */
    private boolean replaceOldest;

    /** Sets whether a full pipe drops its oldest message for the new one (DROP_OLDEST) or misses the new one. */
    public void replaceOldest(boolean replaceOldest) {
        this.replaceOldest = replaceOldest;
    }

    /** Total messages dropped because a pipe was full. */
    public long dropped() {
        return dropped;
    }

    /**
     * Sends {@code msg} to every pipe {@code targets} yields and releases {@code msg}. Returns how many pipes got it.
     */
    public int send(ZmtpMessage msg, Consumer<Consumer<Pipe>> targets) {
        int[] delivered = {0};
        try {
            targets.accept(p -> {
                if (!p.isActive()) {
                    return;
                }
                if (!replaceOldest && !p.hasRoom()) {
                    // Counted before any copy is made: a publisher outrunning a subscriber drops most of what it
                    // sends, and each copy is an object and a retained duplicate per frame.
                    p.countDrop();
                    dropped++;
                    return;
                }
                ZmtpMessage copy = share(msg);
                if (p.offer(copy) || (replaceOldest && p.outbound().offerReplacingOldest(copy))) {
                    delivered[0]++;
                } else {
                    copy.release();
                    p.countDrop();
                    dropped++;
                }
            });
        } finally {
            msg.release();
        }
        return delivered[0];
    }

    /** A new message whose frames are retained duplicates of {@code msg}'s (independent indexes, shared memory). */
    public static ZmtpMessage share(ZmtpMessage msg) {
        int n = msg.size();
        if (n == 1) {
            return ZmtpMessage.wrap(msg.frame(0).retainedDuplicate());
        }
        ZmtpMessage copy = ZmtpMessage.create();
        for (int i = 0; i < n; i++) {
            copy.add(msg.frame(i).retainedDuplicate());
        }
        return copy;
    }
}
