package zmq.util;

/**
 * Test shim: a thread's error number, which JeroMQ's tests reset before each test. netty-zmtp keeps {@code errno()}
 * per socket, so nothing reads this one.
 */
public final class Errno {
    private static final ThreadLocal<Integer> CODE = ThreadLocal.withInitial(() -> 0);

    public int get() {
        return CODE.get();
    }

    public void set(int code) {
        CODE.set(code);
    }

    public boolean is(int code) {
        return get() == code;
    }
}
