package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Netty's {@link ByteToMessageDecoder#MERGE_CUMULATOR}, except that a cumulation which is a wrapper (a buffer Netty's
 * leak detector chose to track, or a slice) is not kept across reads: the bytes left in it and the new read go into
 * a fresh buffer instead.
 *
 * <p>Why: with the leak detector at its default level (SIMPLE) one buffer in 128 is wrapped to be tracked. A read
 * buffer that ends in the middle of a frame stays on as the cumulation, and the merge cumulator appends read after
 * read to it for as long as every read ends mid-frame, which on a stream of small messages is dozens of reads on
 * average; every frame sliced from it is a tracked wrapper too, and every access goes through two more calls. Measured
 * on a 64 B stream at SIMPLE (zmtp-jeromq's perf programs, 2026-11-26): a third of the receiving I/O thread's samples
 * in the wrappers, 7% more CPU than with the detector off. Re-homed at the next read, a sampled buffer is the
 * cumulation for one read, as a sample should be; the detector still tracks it, its frames and their release.
 *
 * <p>The cost: the left-over bytes (less than a frame) are copied once more, only when the cumulation is a wrapper,
 * so about once per 128 read buffers; and only when they are no more than the new read (the merge cumulator copies
 * the new read anyway), so a large message being assembled is never copied over and over.
 */
final class SampleSheddingCumulator implements ByteToMessageDecoder.Cumulator {
    static final SampleSheddingCumulator INSTANCE = new SampleSheddingCumulator();

    private SampleSheddingCumulator() {
    }

    @Override
    public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
        int left = cumulation.readableBytes();
        int arriving = in.readableBytes();
        // left <= arriving, and the sum compared by subtraction: a huge frame read whole (ws) must not overflow it.
        if (cumulation == in || cumulation.unwrap() == null || left == 0 || left > arriving
                || arriving > Integer.MAX_VALUE - left) {
            return ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
        }
        try {
            ByteBuf fresh = alloc.buffer(left + arriving);
            try {
                fresh.writeBytes(cumulation, cumulation.readerIndex(), left);
                fresh.writeBytes(in, in.readerIndex(), arriving);
            } catch (Throwable t) {
                // As the merge cumulator: on failure the old cumulation stays the decoder's.
                fresh.release();
                throw t;
            }
            cumulation.release();
            return fresh;
        } finally {
            in.release();
        }
    }
}
