package io.zmtp.codec.mechanism;

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
 * <p>The blocks held are key stream of nonces not used yet: as secret as the connection's key, which is in the
 * same heap, and overwritten by the next fill. Branches here depend on nonces and lengths, which travel in clear.
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

    /**
     * Makes the first {@code blocksPerBox} blocks of the next {@code boxes} boxes of {@code salsa}'s key from
     * {@code firstNonce} on, for {@code owner}; {@code boxes * blocksPerBox} is at most {@link #MAX_BLOCKS}.
     */
    void fill(Object owner, SalsaStream salsa, long firstNonce, int boxes, int blocksPerBox) {
        salsa.ahead(firstNonce, boxes, blocksPerBox, keyStream);
        this.owner = owner;
        this.nextNonce = firstNonce;
        this.left = boxes;
        this.blocksPerBox = blocksPerBox;
        this.next = 0;
    }

    /**
     * If the next box held is {@code owner}'s with {@code nonce}, hands it out: returns the index of its first long
     * in {@link #keyStream} (it has {@link #blocksPerBox} blocks). Else -1.
     */
    int take(Object owner, long nonce) {
        if (owner != this.owner || nonce != nextNonce || left == 0) {
            return -1;
        }
        int at = next;
        next += 8 * blocksPerBox;
        nextNonce++;
        left--;
        return at;
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
