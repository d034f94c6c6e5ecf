package io.zmtp.jeromq.guide;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The two builds of the same program sources a test can run: on JeroMQ 0.6.0's jar ({@link JeromqBuild}), and
 * on zmtp-jeromq (this module's own build, whose class path is the test JVM's).
 */
enum Implementation {
    JEROMQ("jeromq"),
    ZMTP_JEROMQ("zmtp-jeromq");

    final String id;

    Implementation(String id) {
        this.id = id;
    }

    /** The child JVM's class path for this build. */
    String classPath() {
        return this == JEROMQ ? JeromqBuild.classPath() : System.getProperty("java.class.path");
    }

    /**
     * The builds the pom selects ({@code zmtp.guide.implementations}, comma-separated ids). Every test runs on each,
     * and the tests with two roles on every pair of them.
     */
    static List<Implementation> selected() {
        String ids = JeromqBuild.property("zmtp.guide.implementations");
        List<Implementation> out = new ArrayList<>();
        for (String id : ids.split(",")) {
            String trimmed = id.trim();
            out.add(Arrays.stream(values()).filter(i -> i.id.equals(trimmed)).findFirst()
                    .orElseThrow(() -> new AssertionError("zmtp.guide.implementations: unknown '" + trimmed
                            + "' (expected jeromq or zmtp-jeromq)")));
        }
        return out;
    }

    @Override
    public String toString() {
        return id;
    }
}
