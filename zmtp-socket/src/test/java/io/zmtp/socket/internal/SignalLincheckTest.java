package io.zmtp.socket.internal;

import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of {@link Signal}'s sequence: a thread that read it, found its condition false and waits
 * for a change returns once a signal follows the change it waits for, however the two interleave, and never before
 * (it returns what it saw). What the model checker cannot see here is an unpark that never comes: it lets a parked
 * thread wake spuriously (and {@code await} parks for at most 100 ms at a time anyway), so a waiter that missed its
 * unpark still returns. Checked by hand: signalling with the waiter count read before the sequence's increment (a lost
 * unpark) still passes. The pipes' tests check the sequence protocol their sockets rely on: a look that found nothing
 * reads the count first, and a change after that look is always followed by a signal.
 */
@Tag("lincheck")
public class SignalLincheckTest {
    private final Signal signal = new Signal();
    private volatile int events;

    /** The I/O thread: something changed, then the signal. */
    @Operation(nonParallelGroup = "io")
    public void signal() {
        events++;
        signal.signal();
    }

    /** A user thread: waits, as a socket's send or receive does, until it has seen two changes. */
    @Operation(nonParallelGroup = "user", blocking = true)
    public int awaitTwo() throws InterruptedException {
        for (;;) {
            long seq = signal.sequence();
            int seen = events;
            if (seen >= 2) {
                return seen;
            }
            signal.await(seq, Long.MAX_VALUE);
        }
    }

    @Test
    void shouldWakeAWaiterForASignalAfterItsLook() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(0, 300)
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"signal", "signal"},
                        new String[] {"awaitTwo"}))
                .verifier(AnyResultVerifier.class), getClass());
    }
}
