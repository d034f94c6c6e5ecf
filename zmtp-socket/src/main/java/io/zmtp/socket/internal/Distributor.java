package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
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
                ZmtpMessage copy = share(msg);
                if (p.offer(copy) || (replaceOldest && p.offerReplacingOldest(copy))) {
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
        ByteBuf[] frames = new ByteBuf[msg.size()];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = msg.frame(i).retainedDuplicate();
        }
        return ZmtpMessage.wrap(frames);
    }
}
