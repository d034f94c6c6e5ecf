package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What lbbroker and lbbroker3 promise, checked from the broker's log: every client is answered once, by the worker
 * its request was handed to, and each request goes to the ready worker that has waited longest (least recently used).
 *
 * <p>The broker is one thread and prints each worker's READY, each hand-off and each reply as it handles them, so
 * replaying its lines rebuilds its ready queue exactly. That is what makes the check independent of speed: how many
 * workers end up serving depends on how soon each connects (on a loaded machine one can connect after the others
 * served every request), but which worker the broker must pick, given who was ready at that moment, does not.
 */
final class BrokerLog {
    private static final Pattern READY = Pattern.compile("Broker: (worker-\\d+) ready");
    private static final Pattern HANDED = Pattern.compile("Broker: (client-\\d+) -> (worker-\\d+)");
    private static final Pattern REPLIED =
            Pattern.compile("Broker: (client-\\d+) <- OK from (worker-\\d+) \\((worker-\\d+) ready again\\)");

    private BrokerLog() {}

    /**
     * Replays the broker's lines: fails unless every hand-off went to the head of the ready queue, every reply came
     * from the worker its request went to, and each of {@code clients} clients got exactly one reply, from one of
     * {@code workers} workers.
     */
    static void assertLeastRecentlyUsedAndAnsweredOnce(List<String> lines, int clients, int workers) {
        String output = String.join("\n", lines);
        Queue<String> ready = new ArrayDeque<>();
        Map<String, String> handedTo = new HashMap<>();
        Map<String, Integer> repliesPerClient = new TreeMap<>();
        Map<String, Integer> servedPerWorker = new TreeMap<>();
        for (String line : lines) {
            Matcher m;
            if ((m = READY.matcher(line)).matches()) {
                assertThat(ready).as("%s said READY twice; output:%n%s", m.group(1), output)
                        .doesNotContain(m.group(1));
                ready.add(m.group(1));
            } else if ((m = HANDED.matcher(line)).matches()) {
                assertThat(m.group(2)).as("%s: the least recently used of the ready workers %s; output:%n%s",
                        line, ready, output).isEqualTo(ready.peek());
                ready.poll();
                assertThat(handedTo.put(m.group(1), m.group(2))).as("%s: a second request; output:%n%s", line, output)
                        .isNull();
            } else if ((m = REPLIED.matcher(line)).matches()) {
                // The reply's text names the worker that answered, its envelope the one that is ready again.
                assertThat(m.group(2)).as("%s: the worker the request went to; output:%n%s", line, output)
                        .isEqualTo(handedTo.get(m.group(1)))
                        .isEqualTo(m.group(3));
                ready.add(m.group(3));
                repliesPerClient.merge(m.group(1), 1, Integer::sum);
                servedPerWorker.merge(m.group(2), 1, Integer::sum);
            }
        }
        assertThat(repliesPerClient).as(output).hasSize(clients);
        assertThat(repliesPerClient.values()).as(output).containsOnly(1);
        assertThat(servedPerWorker.keySet()).as(output).allMatch(w -> w.matches("worker-[0-" + (workers - 1) + "]"));
    }
}
