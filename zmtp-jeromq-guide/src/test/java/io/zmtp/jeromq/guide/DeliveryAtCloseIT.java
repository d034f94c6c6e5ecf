package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Guide's programs that send just before a close and count on it arriving, as JeroMQ delivers it (issue 36; the
 * Guide's own files, run by {@code acceptance/guide-examples.sh}, found them): mtrelay (an inproc connect before the
 * bind, then close), rtdealer and rtreq (a broker's last reply, then its context closes) and syncpub (a stream with
 * LINGER 5000, then the context closes).
 */
class DeliveryAtCloseIT {
    /** The syncpub publisher's LINGER: a bound that only a publisher that can't deliver would reach. */
    private static final long PUBLISHER_LINGER_MILLIS = TestTimeouts.scaledMillis(60_000);

    private static final Duration TIMEOUT = TestTimeouts.scaled(Duration.ofSeconds(120));

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#implementations")
    void mtrelaySignalsEveryStep(Implementation impl) throws Exception {
        Path dir = Guide.workDir("mtrelay-" + impl);
        try (GuideProcess relay = GuideProcess.start(impl, dir, "mtrelay", Programs.MT_RELAY, "50")) {
            relay.awaitSuccess(TIMEOUT);
            assertThat(relay.count(l -> l.startsWith("E:"))).as("steps that got no signal").isZero();
            assertThat(relay.count(l -> l.equals("Test successful!"))).isEqualTo(50);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#implementations")
    void rtdealerAndRtreqFireEveryWorker(Implementation impl) throws Exception {
        for (String type : new String[] {"DEALER", "REQ"}) {
            Path dir = Guide.workDir("rtdealer-" + type + "-" + impl);
            int port = Guide.freePort();
            try (GuideProcess broker = GuideProcess.start(impl, dir, "rt" + type, Programs.RT_DEALER, type,
                    "tcp://127.0.0.1:" + port, "10", "1000")) {
                broker.awaitSuccess(TIMEOUT);
                assertThat(broker.count(l -> l.startsWith("E:"))).as(type + " workers with no reply").isZero();
                assertThat(broker.count(l -> l.matches("Completed: \\d+ tasks"))).as(type).isEqualTo(10);
            }
        }
    }

    @ParameterizedTest(name = "publisher on {0}, subscribers on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void syncpubsSubscribersGetTheWholeStream(Implementation pubImpl, Implementation subImpl) throws Exception {
        Path dir = Guide.workDir("syncpub-" + pubImpl + "-" + subImpl);
        int pubPort = Guide.freePort();
        int syncPort = Guide.freePort();
        // What is tested is that the publisher's close delivers what it queued to live subscribers; the Guide's 5 s
        // linger made it a race as well, lost under `taskset -c 0` beside a loaded build (a subscriber had 243 of
        // 50 000 when the linger ran out): the linger passed here is long enough not to be reached, and a close that
        // has delivered everything returns at once whatever it is.
        int updates = 50_000;
        List<GuideProcess> subs = new ArrayList<>();
        try (GuideProcess pub = GuideProcess.start(pubImpl, dir, "syncpub", Programs.SYNC_PUB,
                "tcp://127.0.0.1:" + pubPort, "tcp://127.0.0.1:" + syncPort, "3", String.valueOf(updates),
                String.valueOf(PUBLISHER_LINGER_MILLIS))) {
            for (int i = 0; i < 3; i++) {
                subs.add(GuideProcess.start(subImpl, dir, "syncsub" + i, Programs.SYNC_SUB,
                        "tcp://127.0.0.1:" + pubPort, "tcp://127.0.0.1:" + syncPort));
            }
            pub.awaitSuccess(TIMEOUT);
            for (GuideProcess sub : subs) {
                sub.awaitSuccess(TIMEOUT);
                assertThat(sub.lines()).contains("Received " + updates + " updates.");
            }
        } finally {
            for (GuideProcess sub : subs) {
                sub.close();
            }
        }
    }
}
