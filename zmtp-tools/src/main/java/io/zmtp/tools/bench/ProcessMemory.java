package io.zmtp.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process holds: heap in use after a full GC, and its resident set ({@code VmRSS} from /proc/self/status;
 * -1 where there is no /proc). The resident set also counts what the heap doesn't: Netty's direct buffers, thread
 * stacks, the JIT's code.
 */
record ProcessMemory(long heapBytes, long rssBytes) {
    static ProcessMemory measure() throws InterruptedException {
        // Several collections: one may leave garbage a finalizer or reference queue frees for the next.
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return new ProcessMemory(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), rss());
    }

    /** "heap 1,234 KiB after GC, RSS 5,678 KiB". */
    String describe() {
        return String.format("heap %,d KiB after GC, RSS %s", heapBytes / 1024,
                rssBytes < 0 ? "n/a" : String.format("%,d KiB", rssBytes / 1024));
    }

    /** "heap 1,234 B, RSS 5,678 B" per one of {@code count} things added since {@code before}. */
    String describeGrowth(ProcessMemory before, int count) {
        return String.format("heap %,d B, RSS %s", (heapBytes - before.heapBytes) / count,
                rssBytes < 0 || before.rssBytes < 0 ? "n/a"
                        : String.format("%,d B", (rssBytes - before.rssBytes) / count));
    }

    /** The form a child process reports it in: "heap=N rss=N". */
    String encode() {
        return "heap=" + heapBytes + " rss=" + rssBytes;
    }

    static ProcessMemory decode(String s) {
        long heap = 0;
        long rss = -1;
        for (String part : s.trim().split("\\s+")) {
            if (part.startsWith("heap=")) {
                heap = Long.parseLong(part.substring(5));
            } else if (part.startsWith("rss=")) {
                rss = Long.parseLong(part.substring(4));
            }
        }
        return new ProcessMemory(heap, rss);
    }

    private static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.trim().split("\\s+")[1]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux.
        }
        return -1;
    }
}
