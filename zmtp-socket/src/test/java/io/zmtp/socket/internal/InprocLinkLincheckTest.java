package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of an {@link InprocLink}'s life: the inproc thread joining the two ends, a writer
 * sending (and waiting for room) and terminating, which hands what it sent over to the reader ({@code transfer}), and
 * a reader taking messages (and waiting for them). SNDHWM 1 and RCVHWM 1: the link holds 2. One message is queued
 * before the join, carried over to the connection. Checked as each message is read: in order, never twice. After each
 * interleaving: no lost wake-up for either side; a link whose writer terminated has handed over; and every message
 * the writer's pipe took is read, readable, still the writer's, or discarded (only if no join opened the link), once.
 */
@Tag("lincheck")
public class InprocLinkLincheckTest {
    private final LincheckPipes.Signals writerSignals = new LincheckPipes.Signals();
    private final LincheckPipes.Signals readerSignals = new LincheckPipes.Signals();
    private final Pipe writer = new Pipe(writerSignals, true, LincheckPipes.ENDPOINT, 1, 1000);
    private final Pipe reader = new Pipe(readerSignals, false, LincheckPipes.ENDPOINT, 1000, 1);
    private final StubChannel writerChannel = new StubChannel();
    private final StubChannel readerChannel = new StubChannel();
    private final InprocEnd writerEnd = new InprocEnd(writer, writerChannel);
    private final InprocEnd readerEnd = new InprocEnd(reader, readerChannel);
    /** Made here, not in the operation: see {@link LincheckPipes#handshake}. */
    private final ZmtpHandshakeSuccessEvent writerHandshake = LincheckPipes.handshake(ZmtpSocketType.PULL);
    private final ZmtpHandshakeSuccessEvent readerHandshake = LincheckPipes.handshake(ZmtpSocketType.PUSH);

    /** The writer's thread. */
    private int made;
    private int accepted;
    private int writerWaitingSince = -1;
    private boolean writerTerminated;
    /**
     * The inproc thread: whether the join opened the links. A writer terminated while the join runs makes it refuse
     * the connection (the writer's pipe does not turn active), and what the writer queued is then discarded, as for a
     * pipe that never had a connection.
     */
    private boolean joined;
    /** The reader's thread. */
    private int lastRead;
    private int read;
    private int readerIdleSince = -1;

    public InprocLinkLincheckTest() {
        if (!writer.offer(LincheckPipes.message(++made))) {
            throw new IllegalStateException("no room in " + writer);
        }
        accepted++;
    }

    /** The inproc thread: both handshakes done, the second joins the ends. */
    @Operation(nonParallelGroup = "inproc", runOnce = true)
    public boolean join() {
        writer.onHandshake(writerChannel, writerHandshake, writerEnd, readerEnd);
        reader.onHandshake(readerChannel, readerHandshake, readerEnd, writerEnd);
        joined = writer.isInprocJoined();
        return joined;
    }

    /** A blocking send's attempt: false if there was no room (the writer then waits for a signal). */
    @Operation(nonParallelGroup = "writer")
    public boolean send() {
        int seq = writerSignals.count();
        ZmtpMessage m = LincheckPipes.message(++made);
        if (writer.offer(m)) {
            accepted++;
            writerWaitingSince = -1;
            return true;
        }
        m.release();
        writerWaitingSince = seq;
        return false;
    }

    /** The writer's socket drops its pipe: what it sent stays the reader's. */
    @Operation(nonParallelGroup = "writer", runOnce = true)
    public void terminateWriter() {
        writer.terminate();
        writerTerminated = true;
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
            throw new IllegalStateException("lost wake-up: the reader found nothing, had no signal since, and has"
                    + " input: " + reader + ", " + writer);
        }
        if (!writerTerminated && writerWaitingSince >= 0 && writerSignals.count() == writerWaitingSince
                && writer.hasRoom()) {
            throw new IllegalStateException("lost wake-up: the writer found no room, had no signal since, and has"
                    + " room: " + writer);
        }
        InprocLink link = writer.outbound().link();
        if (writerTerminated && link != null && link.owesReader()) {
            throw new IllegalStateException("the writer terminated and its link never handed over: " + writer);
        }
        // What is left for the reader: at most what was accepted, so the loop is short.
        for (ZmtpMessage m; read < accepted && (m = reader.poll()) != null; ) {
            take(m);
        }
        long left = writer.outDepth();
        long discarded = writer.droppedCount();
        if (read + left + discarded != accepted) {
            throw new IllegalStateException(accepted + " accepted, " + read + " read, " + left + " still the"
                    + " writer's, " + discarded + " discarded: " + writer + ", " + reader);
        }
        if (discarded > 0 && joined) {
            throw new IllegalStateException("discarded what a joined link's reader was owed: " + writer);
        }
    }

    @Test
    void shouldJoinHandOverAndWakeWithoutLosingAMessage() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(3, 300)
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"join"},
                        new String[] {"send", "terminateWriter"}, new String[] {"receive", "receive"}))
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"join"},
                        new String[] {"send", "send"}, new String[] {"receive"}))
                .threads(3)
                .actorsPerThread(2)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
