package org.zeromq;

/**
 * The process-wide context behind {@link ZSocket}s, made on first use and terminated by a shutdown hook, as
 * JeroMQ's. Its I/O thread is a daemon, so it never keeps the JVM alive.
 */
final class ManagedContext {
    private ManagedContext() {
    }

    private static final class Holder {
        static final ZMQ.Context CONTEXT = ZMQ.context(1);

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(CONTEXT::term, "zmtp-jeromq-managed-context"));
        }
    }

    static ZMQ.Context context() {
        return Holder.CONTEXT;
    }
}
