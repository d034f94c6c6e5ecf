package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Byte-prefix subscriptions per owner. A message matches an owner when one of the owner's prefixes is a prefix of the
 * message's first frame; the empty prefix matches everything. Not thread-safe, and not reentrant (a {@link #match}
 * sink must not call back into the trie).
 *
 * <p>Two flavours, as libzmq has them: a publisher keeps a <em>set</em> of prefixes per subscriber pipe
 * ({@link #perOwnerSet()}, libzmq's mtrie: a repeated SUBSCRIBE changes nothing and one CANCEL removes it), while a
 * subscriber's own filter <em>counts</em> ({@link #counted()}, libzmq's trie: two SUBSCRIBE options need two
 * UNSUBSCRIBEs, and only the first and the last reach the publishers).
 *
 * <h2>Layout</h2>
 * A radix trie: each edge carries a run of bytes, so a topic costs one node wherever it branches off, not one per
 * byte (a peer decides the topics, and a node and a map per byte made a 4 MB SUBSCRIBE cost 876 MiB). A sorted set
 * of byte strings would store topics as compactly but match in O(log n) comparisons per prefix length of a message;
 * here a match is one walk down the message's bytes. An edge's bytes are a slice of an array: a new leaf copies the
 * rest of its topic, and a split copies only the upper part (no longer than the topic being added) and leaves the
 * lower node its array with an offset. The bytes before that offset are always the path above the node (splits and
 * merges never change a node's full prefix), so merging a node back into its only child just moves the child's
 * offset back when they fit, and copies otherwise. Those bytes before an offset are each mirrored by a byte of a
 * label above, so the arrays hold at most twice the bytes of the labels, which are at most the topics' bytes.
 *
 * <p>Measured ({@code SubscriptionTrieTest}, JDK 17, compressed oops): 1.0 byte of heap per topic byte for long
 * topics (64 of 256 KiB), and 170 bytes per subscription besides its topic bytes for 200,000 distinct topics of 22
 * bytes (a node of 64 bytes, the label array's header, the owner arrays, the parent's slot; a topic that splits an
 * edge adds a node and a children array). {@link #ENTRY_OVERHEAD_BYTES} rounds that up, for the per-peer budget
 * ({@code ConnectionBudget}). A topic of 4 MiB measures 2 bytes per byte under G1, which gives an array of half a
 * region or more whole regions of its own.
 *
 * <h2>Cost</h2>
 * Nothing recurses: add, remove, match and count walk down one path; removeOwner and prefixes walk the trie with an
 * explicit stack, and rebuild a prefix from parent links. A node is never left without a reason to be: one that
 * loses its last subscriber goes when it has no children, and merges into its child when it has one, so the trie
 * holds only what live subscriptions need. {@link #match} allocates nothing: the nodes it passes are kept in a
 * reusable array, and owners are deduplicated (in a reusable identity map) only when more than one node matched.
 *
 * @param <P> the owner type
 */
public final class SubscriptionTrie<P> {
    /**
     * Heap a subscription costs besides its topic bytes, rounded up from the measurement above; what a peer's
     * subscription budget charges per entry.
     */
    public static final int ENTRY_OVERHEAD_BYTES = 256;
    /** A match that passed more nodes than this gives back its scratch array, rather than keeping it. */
    private static final int SCRATCH_KEPT = 1024;

    private final TrieNode root = new TrieNode();
    private final boolean counted;
    /** match's scratch: the nodes with subscribers it passed, and the owners it has sent (when dedupe is needed). */
    private TrieNode[] hits = new TrieNode[8];
    private final IdentityHashMap<Object, Boolean> sent = new IdentityHashMap<>();

    private SubscriptionTrie(boolean counted) {
        this.counted = counted;
        root.bytes = new byte[0];
    }

    /** A publisher's subscriptions: each owner subscribes to a prefix at most once. */
    public static <P> SubscriptionTrie<P> perOwnerSet() {
        return new SubscriptionTrie<>(false);
    }

    /** A subscriber's filter: each subscription of a prefix counts, and needs a removal of its own. */
    public static <P> SubscriptionTrie<P> counted() {
        return new SubscriptionTrie<>(true);
    }

    /**
     * Adds {@code prefix} for {@code owner} (one more count, or nothing if the owner has it and this is a set); true
     * if the prefix had no subscriber before.
     */
    public boolean add(byte[] prefix, P owner) {
        TrieNode n = root;
        int pos = 0;
        while (pos < prefix.length) {
            int i = n.kid(prefix[pos] & 0xff);
            if (i < 0) {
                TrieNode leaf = new TrieNode();
                leaf.bytes = Arrays.copyOfRange(prefix, pos, prefix.length);
                leaf.len = leaf.bytes.length;
                leaf.depth = prefix.length;
                n.insertKid(-i - 1, leaf);
                n = leaf;
                break;
            }
            TrieNode c = n.kids[i];
            int m = 1;
            int max = Math.min(c.len, prefix.length - pos);
            while (m < max && c.bytes[c.off + m] == prefix[pos + m]) {
                m++;
            }
            if (m < c.len) {
                // Split c's edge after m bytes: the upper part is copied from the prefix, c keeps its array.
                TrieNode mid = new TrieNode();
                mid.bytes = Arrays.copyOfRange(prefix, pos, pos + m);
                mid.len = m;
                mid.depth = n.depth + m;
                mid.parent = n;
                n.kids[i] = mid;
                c.off += m;
                c.len -= m;
                mid.insertKid(0, c);
                c = mid;
            }
            n = c;
            pos += m;
        }
        int k = n.indexOf(owner);
        if (k >= 0) {
            if (!counted) {
                return false;
            }
            n.counts[k]++;
        } else {
            n.addOwner(owner);
        }
        return n.total++ == 0;
    }

    /** Whether {@code owner} has a subscription to exactly {@code prefix}. */
    public boolean contains(byte[] prefix, P owner) {
        TrieNode n = find(prefix);
        return n != null && n.indexOf(owner) >= 0;
    }

    /**
     * Removes {@code prefix} for {@code owner} (one count, or the owner's one entry in a set); true if the prefix has
     * no subscriber left. An unknown subscription is ignored (false).
     */
    public boolean remove(byte[] prefix, P owner) {
        TrieNode n = find(prefix);
        int k = n == null ? -1 : n.indexOf(owner);
        if (k < 0) {
            return false;
        }
        if (n.counts[k] > 1) {
            n.counts[k]--;
        } else {
            n.removeOwnerAt(k);
        }
        if (--n.total > 0) {
            return false;
        }
        tidy(n);
        return true;
    }

    /** Removes all of {@code owner}'s subscriptions; {@code unused} gets each prefix left with no subscriber. */
    public void removeOwner(P owner, Consumer<byte[]> unused) {
        removeOwner(owner, unused, null);
    }

    /**
     * Removes all of {@code owner}'s subscriptions; {@code unused} (if not null) gets each prefix left with no
     * subscriber, in byte order, and {@code removed} (if not null) the length of each subscription removed, once per
     * count.
     */
    public void removeOwner(P owner, Consumer<byte[]> unused, IntConsumer removed) {
        // First find them all, then remove: removing prunes and merges nodes, which a walk must not meet.
        List<TrieNode> found = new ArrayList<>();
        ArrayDeque<TrieNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            TrieNode n = stack.pop();
            if (n.total > 0 && n.indexOf(owner) >= 0) {
                found.add(n);
            }
            for (int i = n.kidCount - 1; i >= 0; i--) {
                stack.push(n.kids[i]); // the first child on top: prefixes come in byte order
            }
        }
        // A node found still has a subscriber (this owner) until its turn, so no tidy() before then touches it.
        for (TrieNode n : found) {
            int k = n.indexOf(owner);
            int c = n.counts[k];
            n.removeOwnerAt(k);
            n.total -= c;
            if (removed != null) {
                for (int i = 0; i < c; i++) {
                    removed.accept(n.depth);
                }
            }
            if (n.total == 0) {
                if (unused != null) {
                    unused.accept(path(n));
                }
                tidy(n);
            }
        }
    }

    /** Calls {@code sink} once for each owner with a subscription matching {@code data}'s readable bytes. */
    @SuppressWarnings("unchecked")
    public void match(ByteBuf data, Consumer<P> sink) {
        int found = 0;
        TrieNode[] h = hits;
        TrieNode n = root;
        int r = data.readerIndex();
        int len = data.readableBytes();
        int pos = 0;
        for (;;) {
            if (n.total > 0) {
                if (found == h.length) {
                    h = hits = Arrays.copyOf(h, found * 2);
                }
                h[found++] = n;
            }
            n = next(n, data, r, pos, len);
            if (n == null) {
                break;
            }
            pos += n.len;
        }
        if (found == 0) {
            return;
        }
        try {
            if (found == 1) {
                // Owners of one node are distinct: nothing to deduplicate.
                TrieNode only = h[0];
                for (int j = 0; j < only.ownerCount; j++) {
                    sink.accept((P) only.owners[j]);
                }
                return;
            }
            for (int i = 0; i < found; i++) {
                TrieNode m = h[i];
                for (int j = 0; j < m.ownerCount; j++) {
                    Object o = m.owners[j];
                    if (sent.put(o, Boolean.TRUE) == null) {
                        sink.accept((P) o);
                    }
                }
            }
        } finally {
            if (found > 1) {
                sent.clear();
            }
            if (h.length > SCRATCH_KEPT) {
                hits = new TrieNode[8];
            } else {
                Arrays.fill(h, 0, found, null);
            }
        }
    }

    /**
     * The child of {@code n} whose whole edge matches {@code data} at {@code pos} (of {@code len} readable bytes
     * from {@code r}), or null.
     */
    private static TrieNode next(TrieNode n, ByteBuf data, int r, int pos, int len) {
        if (pos == len || n.kidCount == 0) {
            return null;
        }
        int i = n.kid(data.getByte(r + pos) & 0xff);
        if (i < 0) {
            return null;
        }
        TrieNode c = n.kids[i];
        if (len - pos < c.len) {
            return null;
        }
        byte[] b = c.bytes;
        for (int k = 1, o = c.off + 1, at = r + pos + 1; k < c.len; k++, o++, at++) {
            if (b[o] != data.getByte(at)) {
                return null;
            }
        }
        return c;
    }

    /** Whether any subscription matches {@code data}. */
    public boolean matches(ByteBuf data) {
        TrieNode n = root;
        int r = data.readerIndex();
        int len = data.readableBytes();
        int pos = 0;
        while (n != null) {
            if (n.total > 0) {
                return true;
            }
            n = next(n, data, r, pos, len);
            if (n != null) {
                pos += n.len;
            }
        }
        return false;
    }

    /** Subscribers (counts summed over owners) of exactly {@code prefix}. */
    public int count(byte[] prefix) {
        TrieNode n = find(prefix);
        return n == null ? 0 : n.total;
    }

    /** Every prefix with at least one subscriber, in (unsigned) byte order. */
    public List<byte[]> prefixes() {
        List<byte[]> out = new ArrayList<>();
        ArrayDeque<TrieNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            TrieNode n = stack.pop();
            if (n.total > 0) {
                out.add(path(n));
            }
            for (int i = n.kidCount - 1; i >= 0; i--) {
                stack.push(n.kids[i]); // the first child on top: prefixes come in byte order
            }
        }
        return out;
    }

    /** The node of exactly {@code prefix}, or null. */
    private TrieNode find(byte[] prefix) {
        TrieNode n = root;
        int pos = 0;
        while (pos < prefix.length) {
            int i = n.kid(prefix[pos] & 0xff);
            if (i < 0) {
                return null;
            }
            TrieNode c = n.kids[i];
            if (prefix.length - pos < c.len) {
                return null;
            }
            for (int k = 1; k < c.len; k++) {
                if (c.bytes[c.off + k] != prefix[pos + k]) {
                    return null;
                }
            }
            pos += c.len;
            n = c;
        }
        return n;
    }

    /** {@code n}'s full prefix, from its edge and its ancestors'. */
    private byte[] path(TrieNode n) {
        byte[] out = new byte[n.depth];
        for (TrieNode x = n; x != root; x = x.parent) {
            System.arraycopy(x.bytes, x.off, out, x.depth - x.len, x.len);
        }
        return out;
    }

    /**
     * {@code n} lost its last subscriber: drops it and every ancestor left with neither subscribers nor children,
     * then merges the node where that stopped into its only child, if it has one and no subscribers.
     */
    private void tidy(TrieNode n) {
        while (n != root && n.total == 0 && n.kidCount == 0) {
            TrieNode p = n.parent;
            p.removeKid(p.kid(n.first()));
            n.parent = null;
            n = p;
        }
        if (n == root || n.total > 0 || n.kidCount != 1) {
            return;
        }
        TrieNode c = n.kids[0];
        TrieNode p = n.parent;
        int at = p.kid(n.first());
        if (c.off >= n.len) {
            // c's array holds the path above it: its edge just starts earlier.
            c.off -= n.len;
        } else {
            byte[] joined = new byte[n.len + c.len];
            System.arraycopy(n.bytes, n.off, joined, 0, n.len);
            System.arraycopy(c.bytes, c.off, joined, n.len, c.len);
            c.bytes = joined;
            c.off = 0;
        }
        c.len += n.len;
        p.kids[at] = c;
        c.parent = p;
        n.parent = null;
        n.kids = null;
    }
}
