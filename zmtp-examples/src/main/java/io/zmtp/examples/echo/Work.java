package io.zmtp.examples.echo;

import java.util.concurrent.TimeUnit;

/** The work a worker does for a request: sleeping, as the article's workers did, so it costs time but no CPU. */
final class Work {
    private Work() {
    }

    static void simulate(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
