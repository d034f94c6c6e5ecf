package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SubscriptionTrie} beyond the routing examples of RoutingTest: topics as long as a peer may send (no
 * recursion per byte, a small cost per byte), a match that allocates nothing, and random operations checked against
 * a list of (owner, prefix) entries, over a two-letter alphabet so that prefixes share and split edges all the time.
 */
class SubscriptionTrieTest {
    private static final int HUGE = 4 << 20;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static byte[] huge(int length, byte fill) {
        byte[] t = new byte[length];
        Arrays.fill(t, fill);
        return t;
    }

    private static List<String> match(SubscriptionTrie<String> t, byte[] data) {
        List<String> out = new ArrayList<>();
        t.match(Unpooled.wrappedBuffer(data), out::add);
        return out;
    }

    @Test
    void shouldAddMatchAndRemoveATopicOfFourMebibytesWithoutRecursion() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        byte[] topic = huge(HUGE, (byte) 'x');
        byte[] shorter = Arrays.copyOf(topic, HUGE / 2);
        assertThat(t.add(topic, "p")).isTrue();
        assertThat(t.add(shorter, "q")).isTrue();
        assertThat(t.count(topic)).isEqualTo(1);
        assertThat(match(t, topic)).containsExactlyInAnyOrder("p", "q");
        assertThat(match(t, shorter)).containsExactly("q");
        assertThat(t.matches(Unpooled.wrappedBuffer(topic))).isTrue();
        assertThat(t.prefixes()).extracting(p -> p.length).containsExactlyInAnyOrder(HUGE, HUGE / 2);
        assertThat(t.remove(topic, "p")).isTrue();
        assertThat(match(t, topic)).containsExactly("q");
        t.add(topic, "p");
        List<Integer> unused = new ArrayList<>();
        t.removeOwner("q", u -> unused.add(u.length));
        assertThat(unused).containsExactly(HUGE / 2);
        t.removeOwner("p", u -> unused.add(u.length));
        assertThat(unused).containsExactly(HUGE / 2, HUGE);
        assertThat(t.prefixes()).isEmpty();
        assertThat(t.matches(Unpooled.wrappedBuffer(topic))).isFalse();
    }

    @Test
    void shouldHandleAChainOfManyNestedPrefixesWithoutRecursion() {
        // Every prefix length subscribed: as many nodes as bytes, the deepest trie a topic can make.
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        int n = 20_000;
        byte[] topic = huge(n, (byte) 'y');
        for (int i = 0; i <= n; i++) {
            t.add(Arrays.copyOf(topic, i), i % 2 == 0 ? "even" : "odd");
        }
        assertThat(match(t, topic)).containsExactlyInAnyOrder("even", "odd");
        assertThat(t.prefixes()).hasSize(n + 1);
        int[] unused = {0};
        t.removeOwner("even", u -> unused[0]++);
        assertThat(unused[0]).isEqualTo(n / 2 + 1);
        t.removeOwner("odd", u -> unused[0]++);
        assertThat(t.prefixes()).isEmpty();
    }

    @Test
    void shouldCostAboutOneBytePerTopicByte() {
        // A rough heap measurement (System.gc is a hint, so this only bounds the figure from above): the
        // per-byte cost written in SubscriptionTrie's class comment. Topics of 256 KiB, not 4 MiB: G1 gives an
        // array of half a region or more whole regions of its own, and a 4 MiB topic's array measures 2 bytes
        // per byte for that reason alone, whatever holds it.
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        byte[][] topics = new byte[64][];
        for (int i = 0; i < topics.length; i++) {
            topics[i] = huge(256 << 10, (byte) i);
        }
        long before = usedHeap();
        for (byte[] topic : topics) {
            t.add(topic, "p");
        }
        long grew = usedHeap() - before;
        double perByte = (double) grew / (topics.length * (256L << 10));
        System.out.printf("SubscriptionTrie: %.3f bytes of heap per topic byte (64 topics of 256 KiB)%n", perByte);
        assertThat(perByte).isLessThan(1.2);
        assertThat(t.count(topics[0])).isEqualTo(1);
    }

    @Test
    void shouldMeasureTheCostOfAShortSubscription() {
        // The per-entry overhead behind ConnectionBudget's constant: many short distinct topics, one owner each.
        SubscriptionTrie<Object> t = SubscriptionTrie.perOwnerSet();
        Object owner = new Object();
        int n = 200_000;
        byte[][] topics = new byte[n][];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            topics[i] = b("topic." + Long.toHexString(r.nextLong()));
        }
        long before = usedHeap();
        for (byte[] topic : topics) {
            t.add(topic, owner);
        }
        long grew = usedHeap() - before;
        long bytes = 0;
        for (byte[] topic : topics) {
            bytes += topic.length;
        }
        double perEntry = (double) (grew - bytes) / n;
        System.out.printf("SubscriptionTrie: %.0f bytes of heap per subscription besides its topic bytes "
                + "(%d topics of %.1f bytes)%n", perEntry, n, (double) bytes / n);
        assertThat(perEntry).isLessThan(SubscriptionTrie.ENTRY_OVERHEAD_BYTES);
        assertThat(t.prefixes()).hasSize(n);
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    @Test
    void shouldMatchWithoutAllocating() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        t.add(b(""), "all");
        t.add(b("A"), "p");
        t.add(b("AB"), "p");
        t.add(b("ABC"), "q");
        t.add(b("B"), "r");
        ByteBuf data = Unpooled.wrappedBuffer(b("ABCD"));
        int[] seen = {0};
        Consumer<String> sink = p -> seen[0]++;
        for (int i = 0; i < 20_000; i++) {
            t.match(data, sink);
        }
        seen[0] = 0;
        long before = allocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            t.match(data, sink);
        }
        long allocated = allocatedBytes() - before;
        assertThat(seen[0]).as("all, p and q, once each per message").isEqualTo(30_000);
        assertThat(allocated).as("bytes allocated by 10,000 matches").isLessThan(4096);
    }

    /** This thread's allocations so far, read reflectively: the module under test doesn't read java.management. */
    private static long allocatedBytes() {
        try {
            Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean")
                    .getMethod("getCurrentThreadAllocatedBytes").invoke(mx);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    // ---------------------------------------------------------------- against a model

    /** The model: a list of (owner, prefix) entries; a set per owner, or one entry per count. */
    private static final class Model {
        final boolean counted;
        final List<String[]> entries = new ArrayList<>();

        Model(boolean counted) {
            this.counted = counted;
        }

        int count(String prefix) {
            int n = 0;
            for (String[] e : entries) {
                n += e[1].equals(prefix) ? 1 : 0;
            }
            return n;
        }

        boolean has(String owner, String prefix) {
            for (String[] e : entries) {
                if (e[0].equals(owner) && e[1].equals(prefix)) {
                    return true;
                }
            }
            return false;
        }

        boolean add(String prefix, String owner) {
            if (!counted && has(owner, prefix)) {
                return false;
            }
            boolean first = count(prefix) == 0;
            entries.add(new String[] {owner, prefix});
            return first;
        }

        boolean remove(String prefix, String owner) {
            for (int i = 0; i < entries.size(); i++) {
                String[] e = entries.get(i);
                if (e[0].equals(owner) && e[1].equals(prefix)) {
                    entries.remove(i);
                    return count(prefix) == 0;
                }
            }
            return false;
        }

        /** The prefixes left unused; {@code removedLengths} gets the length of each entry removed. */
        List<String> removeOwner(String owner, List<Integer> removedLengths) {
            Set<String> had = new HashSet<>();
            for (String[] e : entries) {
                if (e[0].equals(owner)) {
                    had.add(e[1]);
                    removedLengths.add(e[1].length());
                }
            }
            entries.removeIf(e -> e[0].equals(owner));
            List<String> unused = new ArrayList<>();
            for (String p : had) {
                if (count(p) == 0) {
                    unused.add(p);
                }
            }
            return unused;
        }

        Set<String> match(String data) {
            Set<String> out = new HashSet<>();
            for (String[] e : entries) {
                if (data.startsWith(e[1])) {
                    out.add(e[0]);
                }
            }
            return out;
        }

        Set<String> prefixes() {
            Set<String> out = new HashSet<>();
            for (String[] e : entries) {
                out.add(e[1]);
            }
            return out;
        }
    }

    private static String word(SplittableRandom r, int maxLength) {
        int n = r.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(r.nextInt(3) == 0 ? 'b' : 'a');
        }
        return sb.toString();
    }

    @Test
    void shouldAgreeWithAListOfEntriesOverRandomOperations() {
        long base = new SplittableRandom().nextLong();
        for (int run = 0; run < 400; run++) {
            long seed = base + run;
            boolean counted = run % 2 == 1;
            try {
                checkAgainstModel(new SplittableRandom(seed), counted);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + (counted ? " (counted)" : " (set)") + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private static void checkAgainstModel(SplittableRandom r, boolean counted) {
        SubscriptionTrie<String> t = counted ? SubscriptionTrie.counted() : SubscriptionTrie.perOwnerSet();
        Model m = new Model(counted);
        String[] owners = {"p", "q", "r"};
        List<String> log = new ArrayList<>();
        for (int step = 0; step < 200; step++) {
            String owner = owners[r.nextInt(owners.length)];
            String w = word(r, 6);
            int op = r.nextInt(10);
            String what;
            if (op < 4) {
                what = "add " + owner + " '" + w + "'";
                log.add(what);
                assertThat(t.add(b(w), owner)).as("%s", log).isEqualTo(m.add(w, owner));
            } else if (op < 7) {
                what = "remove " + owner + " '" + w + "'";
                log.add(what);
                assertThat(t.remove(b(w), owner)).as("%s", log).isEqualTo(m.remove(w, owner));
            } else if (op == 7) {
                what = "removeOwner " + owner;
                log.add(what);
                List<String> unused = new ArrayList<>();
                List<Integer> lengths = new ArrayList<>();
                t.removeOwner(owner, u -> unused.add(s(u)), lengths::add);
                List<Integer> expectedLengths = new ArrayList<>();
                assertThat(unused).as("%s", log)
                        .containsExactlyInAnyOrderElementsOf(m.removeOwner(owner, expectedLengths));
                assertThat(lengths).as("%s: each entry removed, once per count", log)
                        .containsExactlyInAnyOrderElementsOf(expectedLengths);
            } else {
                what = "match '" + w + "'";
                log.add(what);
                List<String> got = match(t, b(w));
                assertThat(got).as("%s: no owner twice", log).doesNotHaveDuplicates();
                assertThat(new HashSet<>(got)).as("%s", log).isEqualTo(m.match(w));
                assertThat(t.matches(Unpooled.wrappedBuffer(b(w)))).as("%s", log).isEqualTo(!m.match(w).isEmpty());
            }
            assertThat(t.count(b(w))).as("%s: count", log).isEqualTo(m.count(w));
            Set<String> prefixes = new HashSet<>();
            for (byte[] p : t.prefixes()) {
                prefixes.add(s(p));
            }
            assertThat(prefixes).as("%s: prefixes", log).isEqualTo(m.prefixes());
            assertThat(t.prefixes()).as("%s: each prefix once", log).hasSameSizeAs(prefixes);
        }
    }
}
