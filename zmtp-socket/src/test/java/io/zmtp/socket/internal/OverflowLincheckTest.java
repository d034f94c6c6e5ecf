package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpOverflowPolicy;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model checking (Lincheck) of what a send does at SNDHWM under each {@link ZmtpOverflowPolicy}, over a full inproc
 * link (SNDHWM 1 + RCVHWM 1, two messages queued) that a reader is taking from: BLOCK waits for a signal, FAIL
 * gives up, DROP_NEWEST drops the new message, DROP_OLDEST evicts the oldest queued one for it
 * ({@link OutboundQueue#offerReplacingOldest}), as {@code SocketBase.overflow} decides (DEFAULT is one of these per
 * socket type). Checked as each message is read: in order, never twice. After each interleaving: no lost wake-up for
 * the reader nor for a blocked sender, and every message the pipe took is read, readable or evicted, once.
 */
@Tag("lincheck")
public class OverflowLincheckTest {
    /** The policy under test: set before each check, read by every instance Lincheck makes. */
    private static volatile ZmtpOverflowPolicy policy;

    private final LincheckPipes.Signals writerSignals = new LincheckPipes.Signals();
    private final LincheckPipes.Signals readerSignals = new LincheckPipes.Signals();
    private final Pipe writer = new Pipe(writerSignals, true, LincheckPipes.ENDPOINT, 1, 1000);
    private final Pipe reader = new Pipe(readerSignals, false, LincheckPipes.ENDPOINT, 1000, 1);
    private final ZmtpOverflowPolicy overflow = policy;

    /** The writer's thread. */
    private int made;
    private int accepted;
    private int droppedNewest;
    private int writerWaitingSince = -1;
    /** The reader's thread. */
    private int lastRead;
    private int read;
    private int readerIdleSince = -1;

    public OverflowLincheckTest() {
        LincheckPipes.join(writer, new StubChannel(), reader, new StubChannel());
        if (!writer.offer(LincheckPipes.message(++made)) || !writer.offer(LincheckPipes.message(++made))
                || writer.hasRoom()) {
            throw new IllegalStateException("the link should be full: " + writer);
        }
        accepted = 2;
    }

    /** A send, and what the policy made of it at SNDHWM. */
    @Operation(nonParallelGroup = "writer")
    public String send() {
        int seq = writerSignals.count();
        ZmtpMessage m = LincheckPipes.message(++made);
        if (writer.offer(m)) {
            accepted++;
            writerWaitingSince = -1;
            return "queued";
        }
        switch (overflow) {
            case BLOCK:
                m.release();
                writerWaitingSince = seq;
                return "waits";
            case FAIL:
                m.release();
                return "fails";
            case DROP_OLDEST:
                if (writer.outbound().offerReplacingOldest(m)) {
                    accepted++;
                    return "replaced the oldest";
                }
                break;
            default:
                break;
        }
        m.release();
        writer.countDrop();
        droppedNewest++;
        return "dropped";
    }

    /** The reader's attempt: the id read, or -1 for nothing (the reader then waits for a signal). */
    @Operation(nonParallelGroup = "reader")
    public int receive() {
        int seq = readerSignals.count();
        ZmtpMessage m = reader.poll();
        if (m == null) {
            readerIdleSince = seq;
            return -1;
        }
        readerIdleSince = -1;
        return take(m);
    }

    private int take(ZmtpMessage m) {
        int id = m.routingId();
        m.release();
        if (id <= lastRead) {
            throw new IllegalStateException("read " + id + " after " + lastRead);
        }
        lastRead = id;
        read++;
        return id;
    }

    @Validate
    public void noLostWakeUpNorMessage() {
        if (readerIdleSince >= 0 && readerSignals.count() == readerIdleSince && reader.hasInput()) {
            throw new IllegalStateException(overflow + ": lost wake-up: the reader found nothing, had no signal"
                    + " since, and has input: " + writer);
        }
        if (writerWaitingSince >= 0 && writerSignals.count() == writerWaitingSince && writer.hasRoom()) {
            throw new IllegalStateException(overflow + ": lost wake-up: a blocked sender had no signal since it"
                    + " found no room, and there is room: " + writer);
        }
        for (ZmtpMessage m; read < accepted && (m = reader.poll()) != null; ) {
            take(m);
        }
        long evicted = writer.droppedCount() - droppedNewest;
        if (read + evicted != accepted || writer.outDepth() != 0) {
            throw new IllegalStateException(overflow + ": " + accepted + " accepted, " + read + " read, " + evicted
                    + " evicted, " + writer.outDepth() + " left: " + writer);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ZmtpOverflowPolicy.class, names = {"BLOCK", "FAIL", "DROP_NEWEST", "DROP_OLDEST"})
    void shouldApplyThePolicyWithoutLosingAWakeUpOrAMessage(ZmtpOverflowPolicy tested) {
        policy = tested;
        LincheckScenarios.check(LincheckScenarios.modelChecking(2, 200)
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"send", "send"},
                        new String[] {"receive"}))
                .threads(2)
                .actorsPerThread(2)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
