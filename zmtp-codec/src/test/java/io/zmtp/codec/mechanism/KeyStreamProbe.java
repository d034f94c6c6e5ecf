package io.zmtp.codec.mechanism;

/**
 * What the per-thread key stream buffers hold, for tests outside this package that run CURVE through the handler.
 * Public for those tests only (test scope).
 */
public final class KeyStreamProbe {
    private KeyStreamProbe() {
    }

    /** Whether this thread's key stream made ahead (either direction) still belongs to some connection's boxer. */
    public static boolean heldOnThisThread() {
        KeyStreamAhead seal = MessageBoxer.SEAL_AHEAD.getIfExists();
        KeyStreamAhead open = MessageBoxer.OPEN_AHEAD.getIfExists();
        return seal != null && seal.owner() != null || open != null && open.owner() != null;
    }
}
