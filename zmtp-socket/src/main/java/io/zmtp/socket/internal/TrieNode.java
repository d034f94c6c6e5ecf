package io.zmtp.socket.internal;

import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * One node of a {@link SubscriptionTrie}: the edge from its parent (a slice of an array), its children sorted by their
 * edge's first byte, and its owners with their counts. Not thread-safe; only the trie touches it.
 */
final class TrieNode {
    /** Owners of one prefix are found by scanning up to this many; beyond it an identity index is kept. */
    private static final int INDEX_THRESHOLD = 8;

    /** The edge from the parent: {@code bytes[off, off + len)}; {@code bytes[0, off)} is the path above. */
    byte[] bytes;
    int off;
    int len;
    /** The length of the node's full prefix (never changes). */
    int depth;
    TrieNode parent;
    /** Children, sorted by the (unsigned) first byte of their edge. */
    TrieNode[] kids;
    int kidCount;
    /** Owners and their counts (always 1 in a set), in parallel arrays; null when there are none. */
    Object[] owners;
    int[] counts;
    int ownerCount;
    /** Owner to its position in {@code owners}, once there are more than INDEX_THRESHOLD. */
    IdentityHashMap<Object, Integer> index;
    /** Subscriptions of exactly this prefix: the counts summed. */
    int total;

    int first() {
        return bytes[off] & 0xff;
    }

    int indexOf(Object owner) {
        if (index != null) {
            Integer i = index.get(owner);
            return i == null ? -1 : i;
        }
        for (int i = 0; i < ownerCount; i++) {
            if (owners[i] == owner) {
                return i;
            }
        }
        return -1;
    }

    void addOwner(Object owner) {
        if (owners == null) {
            owners = new Object[1];
            counts = new int[1];
        } else if (ownerCount == owners.length) {
            owners = Arrays.copyOf(owners, ownerCount * 2);
            counts = Arrays.copyOf(counts, ownerCount * 2);
        }
        owners[ownerCount] = owner;
        counts[ownerCount] = 1;
        ownerCount++;
        if (index != null) {
            index.put(owner, ownerCount - 1);
        } else if (ownerCount > INDEX_THRESHOLD) {
            index = new IdentityHashMap<>();
            for (int i = 0; i < ownerCount; i++) {
                index.put(owners[i], i);
            }
        }
    }

    void removeOwnerAt(int k) {
        int last = --ownerCount;
        if (index != null) {
            index.remove(owners[k]);
        }
        if (k != last) {
            owners[k] = owners[last];
            counts[k] = counts[last];
            if (index != null) {
                index.put(owners[k], k);
            }
        }
        owners[last] = null;
        counts[last] = 0;
        if (ownerCount == 0) {
            owners = null;
            counts = null;
            index = null;
        } else if (ownerCount <= owners.length / 4) {
            owners = Arrays.copyOf(owners, owners.length / 2);
            counts = Arrays.copyOf(counts, counts.length / 2);
            if (index != null && ownerCount <= INDEX_THRESHOLD / 2) {
                index = null;
            }
        }
    }

    /** The child whose edge starts with {@code b}: its position, or {@code -(insertion point) - 1}. */
    int kid(int b) {
        int lo = 0;
        int hi = kidCount - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int f = kids[mid].first();
            if (f < b) {
                lo = mid + 1;
            } else if (f > b) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    void insertKid(int at, TrieNode c) {
        if (kids == null) {
            kids = new TrieNode[2];
        } else if (kidCount == kids.length) {
            kids = Arrays.copyOf(kids, kidCount * 2);
        }
        System.arraycopy(kids, at, kids, at + 1, kidCount - at);
        kids[at] = c;
        kidCount++;
        c.parent = this;
    }

    void removeKid(int at) {
        System.arraycopy(kids, at + 1, kids, at, kidCount - at - 1);
        kids[--kidCount] = null;
        if (kidCount == 0) {
            kids = null;
        } else if (kids.length > 4 && kidCount <= kids.length / 4) {
            kids = Arrays.copyOf(kids, kids.length / 2);
        }
    }
}
