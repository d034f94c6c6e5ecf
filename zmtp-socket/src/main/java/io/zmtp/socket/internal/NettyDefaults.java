package io.zmtp.socket.internal;

/**
 * Netty settings that netty-zmtp's sockets choose when the application hasn't, applied before Netty's first class
 * initialises (from {@code ZmtpContext}'s static initialiser), so a process that makes one context and exchanges one
 * message doesn't pay for what it doesn't use. Each is a system property Netty reads once; an application that sets
 * it (on the command line or before the first context) keeps its value, and one that already used Netty before its
 * first context keeps Netty's defaults, whatever this does.
 *
 * <ul>
 *   <li>{@code io.netty.jfr.enabled=false}: Netty's buffer allocators emit Java Flight Recorder events (chunk and
 *   buffer allocations); with it on, the first buffer brings up the JFR machinery in every JVM, recording or not:
 *   about 90 classes and a third of a second of CPU on a 2-core machine, the largest single start-up cost measured
 *   (docs/performance-notes.md, round 4). Run with {@code -Dio.netty.jfr.enabled=true} to record those events.</li>
 * </ul>
 */
public final class NettyDefaults {
    static final String JFR = "io.netty.jfr.enabled";

    private NettyDefaults() {
    }

    /** Sets each property the application left unset. */
    public static void apply() {
        setIfAbsent(JFR, "false");
    }

    private static void setIfAbsent(String key, String value) {
        try {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        } catch (SecurityException e) {
            // A security manager that forbids it: Netty's defaults then stand, which only costs start-up time.
        }
    }
}
