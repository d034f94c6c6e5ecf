package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

class FairQueueTest {

    /** {@code n} pipes, as accepted connections' are, added to {@code fq}. */
    private static List<Pipe> pipes(FairQueue fq, int n, PipeListener listener) {
        List<Pipe> pipes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Pipe p = new Pipe(listener, false, "test://" + i, 1000, 1000);
            pipes.add(p);
            fq.add(p);
        }
        return pipes;
    }

    private static ZmtpMessage message(int pipe, int sequence) {
        return ZmtpMessage.wrap(Unpooled.buffer(8).writeInt(pipe).writeInt(sequence));
    }

    /** Gives {@code pipe} messages as an I/O thread or an inproc peer does: queued, then signalled. */
    private static void give(Pipe pipe, int index, int from, int count) {
        InboundBatch b = new InboundBatch(count);
        for (int i = 0; i < count; i++) {
            b.add(message(index, from + i));
        }
        pipe.inbound().deliver(b);
        pipe.signalActivity();
    }

    private static int[] read(ZmtpMessage m) {
        int[] r = {m.frame(0).getInt(0), m.frame(0).getInt(4)};
        m.release();
        return r;
    }

    @Test
    void shouldVisitOnlyPipesWithInputAndTakeBackAPipeWhenItGetsSome() {
        FairQueue fq = new FairQueue();
        List<Pipe> pipes = pipes(fq, 3, new CountingPipeListener());
        give(pipes.get(1), 1, 0, 2);
        assertThat(read(fq.recv())).containsExactly(1, 0);
        assertThat(fq.lastPipe()).isSameAs(pipes.get(1));
        assertThat(read(fq.recv())).containsExactly(1, 1);
        assertThat(fq.recv()).as("every pipe found empty").isNull();
        assertThat(fq.hasInput()).isFalse();

        give(pipes.get(0), 0, 0, 1);
        give(pipes.get(2), 2, 0, 1);
        assertThat(fq.hasInput()).isTrue();
        List<Integer> from = new ArrayList<>();
        from.add(read(fq.recv())[0]);
        from.add(read(fq.recv())[0]);
        assertThat(from).containsExactlyInAnyOrder(0, 2);
        assertThat(fq.recv()).isNull();

        fq.remove(pipes.get(0));
        give(pipes.get(0), 0, 1, 1);
        assertThat(fq.recv()).as("a removed pipe is not read, even when woken").isNull();
        pipes.get(0).terminate();
    }

    @Test
    void shouldTakeMessagesRoundRobinFromBusyPipes() {
        FairQueue fq = new FairQueue();
        List<Pipe> pipes = pipes(fq, 3, new CountingPipeListener());
        for (int i = 0; i < 3; i++) {
            give(pipes.get(i), i, 0, 3);
        }
        int[] perPipe = new int[3];
        for (int i = 0; i < 6; i++) {
            perPipe[read(fq.recv())[0]]++;
        }
        assertThat(perPipe).containsExactly(2, 2, 2);
        for (int i = 0; i < 3; i++) {
            read(fq.recv());
        }
        assertThat(fq.recv()).isNull();
    }

    /**
     * Writers on two threads give 200 pipes messages in small bursts while a reader takes them under a lock, waiting
     * for a signal whenever it finds nothing: every message arrives once and in order per pipe. A pipe found empty and
     * never woken when it got input would leave its messages unread, and the reader would wait in vain.
     */
    @Test
    void shouldWakeEveryIdlePipeThatGetsInput() throws Exception {
        CountingPipeListener signals = new CountingPipeListener();
        FairQueue fq = new FairQueue();
        int pipeCount = 200;
        int perPipe = 1000;
        List<Pipe> pipes = pipes(fq, pipeCount, signals);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int first = w;
            Thread t = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(first);
                int[] sent = new int[pipeCount];
                int done = 0;
                while (done < pipeCount / 2) {
                    int i = first + 2 * r.nextInt(pipeCount / 2);
                    if (sent[i] == perPipe) {
                        continue;
                    }
                    int n = Math.min(perPipe - sent[i], 1 + r.nextInt(5));
                    give(pipes.get(i), i, sent[i], n);
                    sent[i] += n;
                    if (sent[i] == perPipe) {
                        done++;
                    }
                    if (r.nextInt(50) == 0) {
                        Thread.yield();
                    }
                }
            }, "writer-" + w);
            writers.add(t);
            t.start();
        }
        int[] expected = new int[pipeCount];
        long total = (long) pipeCount * perPipe;
        long received = 0;
        Object lock = new Object();
        while (received < total) {
            ZmtpMessage m;
            synchronized (lock) {
                m = fq.recv();
            }
            if (m == null) {
                assertThat(signals.awaitSignal(scaledSeconds(10), TimeUnit.SECONDS))
                        .as("a signal while %d messages are still to come", total - received).isTrue();
                continue;
            }
            int[] got = read(m);
            assertThat(got[1]).as("pipe %d's next message", got[0]).isEqualTo(expected[got[0]]);
            expected[got[0]]++;
            received++;
        }
        for (Thread t : writers) {
            t.join();
        }
        assertThat(fq.recv()).isNull();
        for (Pipe p : pipes) {
            p.terminate();
        }
    }
}
