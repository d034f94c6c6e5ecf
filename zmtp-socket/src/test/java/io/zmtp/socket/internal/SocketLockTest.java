package io.zmtp.socket.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SocketLockTest {

    @Test
    void shouldLetAWaitingThreadInBeforeTheHolderLocksAgain() throws Exception {
        SocketLock lock = new SocketLock();
        List<String> order = new CopyOnWriteArrayList<>();
        lock.lock();
        Thread waiter = new Thread(() -> {
            lock.lock();
            try {
                order.add("waiter");
            } finally {
                lock.unlock();
            }
        }, "waiter");
        waiter.start();
        while (!lock.hasQueuedThread(waiter)) {
            Thread.onSpinWait();
        }
        // What a thread sending in a loop does: unlock and lock again at once. A plain non-fair lock lets it back in
        // before the waiter it just unparked has run.
        lock.unlock();
        lock.lock();
        try {
            order.add("holder");
        } finally {
            lock.unlock();
        }
        waiter.join();
        assertThat(order).containsExactly("waiter", "holder");
    }

    @Test
    void shouldTakeAFreeLockAtOnceAndReenter() {
        SocketLock lock = new SocketLock();
        lock.lock();
        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }
}
