package io.zmtp.codec.mechanism;

import java.util.Arrays;

/**
 * Key stream made ahead for the next boxes of one direction of one connection: the first blocks of the Salsa20
 * streams of the short nonces {@code n, n + 1, ...}, made in one {@link SalsaLanes#boxes} call. A 1 KiB box needs 17
 * blocks, where the wide core alone runs at 1.3x the scalar core's speed; the streams of 7 such boxes are 119 blocks,
 * where it runs at 3.1x. This works because every MESSAGE nonce of a direction is the same 16-byte prefix plus a
 * counter: the XSalsa20 subkey is the same for all of them, and what differs between boxes is only Salsa20's nonce
 * words, which {@link SalsaLanes} takes per lane. Our own nonces count up by one, and so do libzmq's and ours as the
 * peer's (a peer that skips one simply misses, see below).
 *
 * <p>Where it lives: one per I/O thread and direction ({@link MessageBoxer} keeps a sealing and an opening one in
 * thread locals, 8 KiB each), tagged with the boxer that made it and the next nonce it holds. So memory does not
 * grow with connections (10,000 idle peers hold nothing here), a connection that is busy on its thread hits, and
 * sealing and opening on one connection (request/reply) do not evict each other. Making key stream never yields
 * the thread, so nothing else touches it between a {@link #take} and the box's use of it.
 *
 * <p>A box whose nonce is not the next one held is a miss and takes the ordinary path (the box's blocks alone), so a
 * skipped nonce or another connection's box costs nothing but the work done ahead; a box that needs more blocks than
 * were made uses what was made and continues its stream from there. How much to make ahead, and when to stop
 * trying, is the boxer's choice ({@link MessageBoxer}: it backs off when what it made went unused).
 *
 * <p>What it holds, and for how long: only key stream of its owner's nonces not used yet, as secret as the
 * connection's key, which is in the same heap. Key stream of a used nonce XORed with the recorded ciphertext is the
 * clear text, so none of it stays: a box's blocks are zeroed as soon as the box is done with them ({@link #used}: one
 * {@code Arrays.fill} over the box's region, about as many bytes as its stream, still in the cache; zeroing while
 * sealing would only spread the same stores over the loop), what the owner's nonces moved past without taking (a
 * skip, a box that took the ordinary path) as soon as that is seen ({@link #take}, {@link #passed}), another owner's
 * leftovers when a fill replaces them, and all of it when the owner's connection closes ({@link #release}), which
 * also drops the reference to the owner (and so to its subkey). So between boxes everything outside
 * {@code [next, end)} is zero. Branches here depend on nonces and lengths, which travel in clear.
 */
final class KeyStreamAhead {
    /**
     * The most blocks made at once: {@link SalsaLanes} runs 3.1x the scalar core's speed at 128 (3.2x at 256), and the
     * box that makes the fill waits half as long as at 256 (about 4 us, which a request/reply peer sees once per fill).
     */
    static final int MAX_BLOCKS = 128;

    /** Box {@code i}'s blocks are eight longs each from {@code 8 * i * blocksPerBox}. */
    final long[] keyStream = new long[8 * MAX_BLOCKS];
    /** The boxer whose stream this is, or null. */
    private Object owner;
    private long nextNonce;
    private int left;
    private int blocksPerBox;
    /** Where the next box's blocks start in {@link #keyStream}. */
    private int next;
    /** Where the last fill's blocks end: from {@link #next} to here is key stream not handed out, the rest is zero. */
    private int end;

    /**
     * Makes the first {@code blocksPerBox} blocks of the next {@code boxes} boxes of {@code salsa}'s key from
     * {@code firstNonce} on, for {@code owner}; {@code boxes * blocksPerBox} is at most {@link #MAX_BLOCKS}.
     */
    void fill(Object owner, SalsaStream salsa, long firstNonce, int boxes, int blocksPerBox) {
        int made = 8 * boxes * blocksPerBox;
        salsa.ahead(firstNonce, boxes, blocksPerBox, keyStream);
        if (end > made) {
            // What the last fill left beyond this one: another connection's, or nonces passed over.
            Arrays.fill(keyStream, Math.max(next, made), end, 0L);
        }
        this.owner = owner;
        this.nextNonce = firstNonce;
        this.left = boxes;
        this.blocksPerBox = blocksPerBox;
        this.next = 0;
        this.end = made;
    }

    /**
     * If the next box held is {@code owner}'s with {@code nonce}, hands it out: returns the index of its first long
     * in {@link #keyStream} (it has {@link #blocksPerBox} blocks). Else -1.
     */
    int take(Object owner, long nonce) {
        if (owner != this.owner || left == 0) {
            return -1;
        }
        if (nonce != nextNonce) {
            // The owner's nonces moved on without this buffer: what is left is of nonces used elsewhere or never to
            // be, or beyond a skip (made again if wanted).
            drop();
            return -1;
        }
        int at = next;
        next += 8 * blocksPerBox;
        nextNonce++;
        left--;
        return at;
    }

    /**
     * The box handed out at {@code at} by {@link #take} is done: its blocks are zeroed. Called by every box that took
     * some, before anything else can fill this buffer.
     */
    void used(int at) {
        Arrays.fill(keyStream, at, at + 8 * blocksPerBox, 0L);
    }

    /**
     * A box of {@code owner}'s took the ordinary path (too large to be made ahead): its nonce is used, so if this
     * holds {@code owner}'s stream, it is of that nonce or beyond a nonce already used, and goes now.
     */
    void passed(Object owner) {
        if (owner == this.owner && left > 0) {
            drop();
        }
    }

    /** {@code owner}'s connection is closed: if this holds its stream, it is zeroed and the owner forgotten. */
    void release(Object owner) {
        if (owner == this.owner) {
            drop();
            this.owner = null;
        }
    }

    /** Zeroes what was not handed out; nothing is left to take. */
    private void drop() {
        Arrays.fill(keyStream, next, end, 0L);
        next = end;
        left = 0;
    }

    /** The boxer whose stream this is, or null (for the tests). */
    Object owner() {
        return owner;
    }

    /** Blocks made per box by the last {@link #fill}. */
    int blocksPerBox() {
        return blocksPerBox;
    }

    /** Whether every box of the last fill was handed out. */
    boolean usedUp() {
        return left == 0;
    }
}
