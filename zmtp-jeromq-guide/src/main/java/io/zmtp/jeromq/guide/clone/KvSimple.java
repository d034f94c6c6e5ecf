package io.zmtp.jeromq.guide.clone;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's kvsimple: a key-value message of three frames, key, sequence number (8 bytes, network order) and
 * body.
 */
public final class KvSimple {
    private final String key;
    private long sequence;
    private final byte[] body;

    /** A message for {@code key} at {@code sequence} holding {@code body}. */
    public KvSimple(String key, long sequence, byte[] body) {
        this.key = key;
        this.sequence = sequence;
        this.body = body; // clone if needed
    }

    public String getKey() {
        return key;
    }

    public long getSequence() {
        return sequence;
    }

    public void setSequence(long sequence) {
        this.sequence = sequence;
    }

    public byte[] getBody() {
        return body;
    }

    /** Sends the three frames on {@code publisher}. */
    public void send(Socket publisher) {
        publisher.send(key.getBytes(ZMQ.CHARSET), ZMQ.SNDMORE);

        ByteBuffer bb = ByteBuffer.allocate(8);
        bb.asLongBuffer().put(sequence);
        publisher.send(bb.array(), ZMQ.SNDMORE);

        publisher.send(body, 0);
    }

    /** Receives one message from {@code updates}, or null if it was interrupted or is not three frames. */
    public static KvSimple recv(Socket updates) {
        byte[] data = updates.recv(0);
        if (data == null || !updates.hasReceiveMore()) {
            return null;
        }
        String key = new String(data, ZMQ.CHARSET);
        data = updates.recv(0);
        if (data == null || !updates.hasReceiveMore()) {
            return null;
        }
        long sequence = ByteBuffer.wrap(data).getLong();
        byte[] body = updates.recv(0);
        if (body == null || updates.hasReceiveMore()) {
            return null;
        }
        return new KvSimple(key, sequence, body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(body) + key.hashCode()) + Long.hashCode(sequence);
    }

    @Override
    public boolean equals(Object obj) {
        if (this == obj) {
            return true;
        }
        if (!(obj instanceof KvSimple)) {
            return false;
        }
        KvSimple other = (KvSimple) obj;
        return key.equals(other.key) && sequence == other.sequence && Arrays.equals(body, other.body);
    }

    @Override
    public String toString() {
        return "KvSimple [key=" + key + ", sequence=" + sequence + ", body=" + Arrays.toString(body) + "]";
    }
}
