package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of {@link OutboundQueue} over a connection: senders on the user side (a send that finds
 * no room and waits, DROP_OLDEST's eviction, close's linger) against the drain on the I/O thread. After each
 * interleaving, once the I/O thread has run the drain it was given: nothing is left queued (a message is never
 * without a drain to come), a sender that found no room or a linger that found output pending and had no signal
 * since would find the same again (no lost wake-up), and every message taken was written or evicted, once.
 */
@Tag("lincheck")
public class OutboundQueueLincheckTest {
    private final LincheckPipes.Signals signals = new LincheckPipes.Signals();
    private final Pipe pipe = new Pipe(signals, true, "tcp://lincheck", 1, 1000);
    private final StubChannel channel = new StubChannel();
    /** The user thread: messages made, and how many the pipe took. */
    private int made;
    private int accepted;
    /** The user thread: the signal count read before a send found no room (-1: it found room). */
    private int sendWaitingSince = -1;
    /** The user thread: the signal count read before close's linger found output pending (-1: none pending). */
    private int lingerWaitingSince = -1;

    public OutboundQueueLincheckTest() {
        pipe.onHandshake(channel, LincheckPipes.handshake(ZmtpSocketType.PULL));
        // SNDHWM 1, and one message queued with its drain scheduled, not yet run: full.
        if (!pipe.offer(LincheckPipes.message(++made))) {
            throw new IllegalStateException("no room in " + pipe);
        }
        accepted++;
    }

    /** A blocking send's attempt: false if there was no room (the sender then waits for a signal). */
    @Operation(nonParallelGroup = "user")
    public boolean send() {
        int seq = signals.count();
        ZmtpMessage m = LincheckPipes.message(++made);
        if (pipe.offer(m)) {
            accepted++;
            sendWaitingSince = -1;
            return true;
        }
        m.release();
        sendWaitingSince = seq;
        return false;
    }

    /** A send under DROP_OLDEST: takes the place of the oldest queued message if there is no room. */
    @Operation(nonParallelGroup = "user")
    public boolean sendDropOldest() {
        ZmtpMessage m = LincheckPipes.message(++made);
        if (pipe.offer(m) || pipe.outbound().offerReplacingOldest(m)) {
            accepted++;
            return true;
        }
        m.release();
        return false;
    }

    /** Close's linger: whether output is still pending (the closing thread then waits for a signal). */
    @Operation(nonParallelGroup = "user")
    public boolean linger() {
        int seq = signals.count();
        boolean pending = pipe.hasOutputPending();
        lingerWaitingSince = pending ? seq : -1;
        return pending;
    }

    /** The I/O thread runs the drain it was given, if any. */
    @Operation(nonParallelGroup = "io")
    public boolean drain() {
        return channel.runPendingTask();
    }

    @Validate
    public void nothingStrandedAndNoLostWakeUp() {
        // The I/O thread goes on with what it was given: a drain scheduled and not yet run.
        channel.runPendingTask();
        int signalled = signals.count();
        if (pipe.outDepth() != 0) {
            throw new IllegalStateException("queued with no drain to come: " + pipe);
        }
        if (sendWaitingSince >= 0 && signalled == sendWaitingSince && pipe.hasRoom()) {
            throw new IllegalStateException("lost wake-up: a sender found no room, had no signal since, and there"
                    + " is room: " + pipe);
        }
        if (lingerWaitingSince >= 0 && signalled == lingerWaitingSince && !pipe.hasOutputPending()) {
            throw new IllegalStateException("lost wake-up: close's linger found output pending, had no signal since,"
                    + " and none is: " + pipe);
        }
        long written = channel.written();
        long evicted = pipe.droppedCount();
        if (written + evicted != accepted) {
            throw new IllegalStateException(accepted + " accepted, " + written + " written, " + evicted + " evicted");
        }
    }

    @Test
    void shouldWakeWaitingSendersAndLingerAndStrandNothing() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(3, 300)
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"send", "linger"},
                        new String[] {"drain"}))
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"sendDropOldest", "send"},
                        new String[] {"drain", "drain"}))
                .threads(2)
                .actorsPerThread(3)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
