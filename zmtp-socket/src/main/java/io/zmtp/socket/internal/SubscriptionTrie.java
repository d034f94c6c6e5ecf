package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Byte-prefix subscriptions per owner. A message matches an owner when one of the owner's prefixes is a prefix of the
 * message's first frame; the empty prefix matches everything. Not thread-safe.
 *
 * <p>Two flavours, as libzmq has them: a publisher keeps a <em>set</em> of prefixes per subscriber pipe
 * ({@link #perOwnerSet()}, libzmq's mtrie: a repeated SUBSCRIBE changes nothing and one CANCEL removes it), while a
 * subscriber's own filter <em>counts</em> ({@link #counted()}, libzmq's trie: two SUBSCRIBE options need two
 * UNSUBSCRIBEs, and only the first and the last reach the publishers).
 *
 * @param <P> the owner type
 */
public final class SubscriptionTrie<P> {
    private static final class Node<P> {
        Map<Byte, Node<P>> children;
        Map<P, Integer> owners;
        int total;

        boolean isEmpty() {
            return total == 0 && (children == null || children.isEmpty());
        }
    }

    private final Node<P> root = new Node<>();
    private final boolean counted;

    private SubscriptionTrie(boolean counted) {
        this.counted = counted;
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
        Node<P> n = root;
        for (byte b : prefix) {
            if (n.children == null) {
                n.children = new HashMap<>();
            }
            n = n.children.computeIfAbsent(b, k -> new Node<>());
        }
        if (n.owners == null) {
            n.owners = new IdentityHashMap<>();
        }
        if (!counted && n.owners.containsKey(owner)) {
            return false;
        }
        n.owners.merge(owner, 1, Integer::sum);
        return n.total++ == 0;
    }

    /**
     * Removes {@code prefix} for {@code owner} (one count, or the owner's one entry in a set); true if the prefix has
     * no subscriber left. An unknown subscription is ignored (false).
     */
    public boolean remove(byte[] prefix, P owner) {
        int[] result = {0};
        removeAt(root, prefix, 0, owner, result);
        return result[0] == 2;
    }

    // result: 0 = not found, 1 = removed, 2 = removed and prefix now unused
    private void removeAt(Node<P> n, byte[] prefix, int depth, P owner, int[] result) {
        if (depth == prefix.length) {
            Integer c = n.owners == null ? null : n.owners.get(owner);
            if (c == null) {
                return;
            }
            if (c == 1) {
                n.owners.remove(owner);
            } else {
                n.owners.put(owner, c - 1);
            }
            n.total--;
            result[0] = n.total == 0 ? 2 : 1;
            return;
        }
        Node<P> child = n.children == null ? null : n.children.get(prefix[depth]);
        if (child == null) {
            return;
        }
        removeAt(child, prefix, depth + 1, owner, result);
        if (child.isEmpty()) {
            n.children.remove(prefix[depth]);
        }
    }

    /** Removes all of {@code owner}'s subscriptions; {@code unused} gets each prefix left with no subscriber. */
    public void removeOwner(P owner, Consumer<byte[]> unused) {
        removeOwnerAt(root, owner, new ByteArrayOutputStream(), unused);
    }

    private void removeOwnerAt(Node<P> n, P owner, ByteArrayOutputStream path, Consumer<byte[]> unused) {
        if (n.owners != null) {
            Integer c = n.owners.remove(owner);
            if (c != null) {
                n.total -= c;
                if (n.total == 0 && unused != null) {
                    unused.accept(path.toByteArray());
                }
            }
        }
        if (n.children != null) {
            Iterator<Map.Entry<Byte, Node<P>>> it = n.children.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<Byte, Node<P>> e = it.next();
                ByteArrayOutputStream child = new ByteArrayOutputStream();
                child.writeBytes(path.toByteArray());
                child.write(e.getKey());
                removeOwnerAt(e.getValue(), owner, child, unused);
                if (e.getValue().isEmpty()) {
                    it.remove();
                }
            }
        }
    }

    /** Calls {@code sink} once for each owner with a subscription matching {@code data}'s readable bytes. */
    public void match(ByteBuf data, Consumer<P> sink) {
        Set<P> seen = null;
        Node<P> n = root;
        int r = data.readerIndex();
        int len = data.readableBytes();
        for (int i = 0; ; i++) {
            if (n.total > 0) {
                for (P p : n.owners.keySet()) {
                    if (seen == null) {
                        seen = Collections.newSetFromMap(new IdentityHashMap<>());
                    }
                    if (seen.add(p)) {
                        sink.accept(p);
                    }
                }
            }
            if (i == len || n.children == null) {
                return;
            }
            n = n.children.get(data.getByte(r + i));
            if (n == null) {
                return;
            }
        }
    }

    /** Whether any subscription matches {@code data}. */
    public boolean matches(ByteBuf data) {
        Node<P> n = root;
        int r = data.readerIndex();
        int len = data.readableBytes();
        for (int i = 0; ; i++) {
            if (n.total > 0) {
                return true;
            }
            if (i == len || n.children == null) {
                return false;
            }
            n = n.children.get(data.getByte(r + i));
            if (n == null) {
                return false;
            }
        }
    }

    /** Subscribers (counts summed over owners) of exactly {@code prefix}. */
    public int count(byte[] prefix) {
        Node<P> n = root;
        for (byte b : prefix) {
            n = n.children == null ? null : n.children.get(b);
            if (n == null) {
                return 0;
            }
        }
        return n.total;
    }

    /** Every prefix with at least one subscriber. */
    public List<byte[]> prefixes() {
        List<byte[]> out = new ArrayList<>();
        collect(root, new byte[0], out);
        return out;
    }

    private void collect(Node<P> n, byte[] path, List<byte[]> out) {
        if (n.total > 0) {
            out.add(path);
        }
        if (n.children != null) {
            for (Map.Entry<Byte, Node<P>> e : n.children.entrySet()) {
                byte[] child = Arrays.copyOf(path, path.length + 1);
                child[path.length] = e.getKey();
                collect(e.getValue(), child, out);
            }
        }
    }
}
