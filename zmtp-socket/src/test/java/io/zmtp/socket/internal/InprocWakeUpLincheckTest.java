package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of an open inproc link's wake-ups, in scenarios small enough that the model checker
 * reaches the narrow windows: the reader's two looks at an empty queue around arming its wake-up
 * ({@code readerIdle}) against a send, and the writer's two looks for room around asking for its wake-up
 * ({@code writerBlocked}) against a take, and the reader's look while the writer's end hands the queue over
 * ({@code transfer}). SNDHWM 1 + RCVHWM 1 (the link holds 2), one message queued. After each interleaving: a side
 * that found nothing to do and had no signal since still has nothing to do.
 */
@Tag("lincheck")
public class InprocWakeUpLincheckTest {
    private final LincheckPipes.Signals writerSignals = new LincheckPipes.Signals();
    private final LincheckPipes.Signals readerSignals = new LincheckPipes.Signals();
    private final Pipe writer = new Pipe(writerSignals, true, LincheckPipes.ENDPOINT, 1, 1000);
    private final Pipe reader = new Pipe(readerSignals, false, LincheckPipes.ENDPOINT, 1000, 1);
    /** The writer's thread. */
    private int made;
    private int writerWaitingSince = -1;
    /** The reader's thread. */
    private int lastRead;
    private int readerIdleSince = -1;

    public InprocWakeUpLincheckTest() {
        LincheckPipes.join(writer, new StubChannel(), reader, new StubChannel());
        if (!writer.offer(LincheckPipes.message(++made))) {
            throw new IllegalStateException("no room in " + writer);
        }
    }

    /** A blocking send's attempt: false if there was no room (the writer then waits for a signal). */
    @Operation(nonParallelGroup = "writer")
    public boolean send() {
        int seq = writerSignals.count();
        ZmtpMessage m = LincheckPipes.message(++made);
        if (writer.offer(m)) {
            writerWaitingSince = -1;
            return true;
        }
        m.release();
        writerWaitingSince = seq;
        return false;
    }

    /** The writer's socket drops its pipe: the link ends and what it holds is handed to the reader. */
    @Operation(nonParallelGroup = "writer", runOnce = true)
    public void terminateWriter() {
        writer.terminate();
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
        int id = m.routingId();
        m.release();
        if (id <= lastRead) {
            throw new IllegalStateException("read " + id + " after " + lastRead);
        }
        lastRead = id;
        return id;
    }

    @Validate
    public void noLostWakeUp() {
        if (readerIdleSince >= 0 && readerSignals.count() == readerIdleSince && reader.hasInput()) {
            throw new IllegalStateException("lost wake-up: the reader found nothing, had no signal since, and has"
                    + " input: " + writer);
        }
        if (writerWaitingSince >= 0 && writerSignals.count() == writerWaitingSince && writer.hasRoom()) {
            throw new IllegalStateException("lost wake-up: the writer found no room, had no signal since, and has"
                    + " room: " + writer);
        }
    }

    @Test
    void shouldWakeAReaderThatFoundNothingAndAWriterThatFoundNoRoom() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(2, 200)
                // The reader takes the message queued, then looks at an empty queue while the writer sends.
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"send"},
                        new String[] {"receive", "receive"}))
                // The writer fills the link, then looks for room while the reader takes.
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"send", "send"},
                        new String[] {"receive"}))
                // The writer's end hands the queued message over while the reader looks: a reader that found the
                // queue held by the hand-over is woken by it.
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"terminateWriter"},
                        new String[] {"receive", "receive"}))
                .threads(2)
                .actorsPerThread(2)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
