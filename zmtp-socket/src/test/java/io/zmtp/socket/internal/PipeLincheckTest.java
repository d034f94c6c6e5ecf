package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of a {@link Pipe}'s life over a connection: the I/O thread completing the handshake,
 * draining and seeing the connection close, against the application sending and dropping the pipe
 * ({@link Pipe#terminate}). After each interleaving: a terminated pipe stays terminated (the handshake never brings
 * it back: that was a zombie a DEALER kept queueing for), its connection is closed, and its output is gone; and every
 * message the pipe took was written, discarded, or is still queued, once.
 */
@Tag("lincheck")
public class PipeLincheckTest {
    private final LincheckPipes.Signals signals = new LincheckPipes.Signals();
    private final Pipe pipe = new Pipe(signals, true, "tcp://lincheck", 2, 1000);
    private final StubChannel channel = new StubChannel();
    /** Made here, not in the operation: see {@link LincheckPipes#handshake}. */
    private final ZmtpHandshakeSuccessEvent handshake = LincheckPipes.handshake(ZmtpSocketType.PULL);
    /** The user thread. */
    private int made;
    private int accepted;
    private boolean terminated;

    public PipeLincheckTest() {
        // Queued while connecting: the connection, once up, gets it first.
        if (!pipe.offer(LincheckPipes.message(++made))) {
            throw new IllegalStateException("no room in " + pipe);
        }
        accepted++;
    }

    /** The I/O thread: the handshake is done. */
    @Operation(nonParallelGroup = "io", runOnce = true)
    public Pipe.State handshake() {
        pipe.onHandshake(channel, handshake);
        return pipe.state();
    }

    /** The I/O thread runs the drain it was given, if any. */
    @Operation(nonParallelGroup = "io")
    public boolean drain() {
        return channel.runPendingTask();
    }

    /** The I/O thread: the connection closed. */
    @Operation(nonParallelGroup = "io", runOnce = true)
    public Pipe.State inactive() {
        channel.close();
        pipe.onInactive(channel);
        return pipe.state();
    }

    @Operation(nonParallelGroup = "user")
    public boolean send() {
        ZmtpMessage m = LincheckPipes.message(++made);
        if (pipe.offer(m)) {
            accepted++;
            return true;
        }
        m.release();
        return false;
    }

    /** The socket drops the pipe (a disconnect, or close after its linger). */
    @Operation(nonParallelGroup = "user", runOnce = true)
    public void terminate() {
        pipe.terminate();
        terminated = true;
    }

    @Validate
    public void terminateWinsAndNothingIsLost() {
        channel.runPendingTask();
        long written = channel.written();
        long discarded = pipe.droppedCount();
        int queued = pipe.outDepth();
        if (written + discarded + queued != accepted) {
            throw new IllegalStateException(accepted + " accepted, " + written + " written, " + discarded
                    + " discarded, " + queued + " queued: " + pipe);
        }
        if (!terminated) {
            return;
        }
        if (!pipe.isTerminated()) {
            throw new IllegalStateException("terminated, then brought back: " + pipe);
        }
        if (pipe.channel() != null && channel.isActive()) {
            throw new IllegalStateException("terminated with its connection open: " + pipe);
        }
        if (queued != 0) {
            throw new IllegalStateException("terminated with output queued: " + pipe);
        }
    }

    @Test
    void shouldStayTerminatedWithItsConnectionClosedAndItsOutputAccountedFor() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(3, 300)
                // The handshake against the drop alone: the window between the handshake's look at the state and
                // its move to ACTIVE is a few statements long, which longer scenarios rarely reach.
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"handshake"},
                        new String[] {"terminate"}))
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"handshake", "drain"},
                        new String[] {"send", "terminate"}))
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"handshake", "inactive"},
                        new String[] {"terminate"}))
                .threads(2)
                .actorsPerThread(3)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
