package io.zmtp.interop;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short version of {@code zmtp soak}: PUSH->PULL and DEALER->ROUTER for {@code zmtp.soak.seconds} (15 by default,
 * so a minute for the four) each, against our peer in its own JVM and against libzmq (pyzmq), killed with SIGKILL and
 * restarted every 3 s. The tool runs in a JVM of its own too (this one has the paranoid leak detector, which would
 * make "full speed" a few thousand messages a second). Passes when nothing arrived twice and at most one run of
 * in-flight messages was lost per kill; docs/RELIABILITY.md has longer runs.
 */
class SoakIT {
    private static final int SECONDS = Integer.getInteger("zmtp.soak.seconds", 15);
    private static final Pattern REPORT = Pattern.compile("soak .*, (\\d+) kills: sent ([\\d,]+), received ([\\d,]+).*");

    @ParameterizedTest(name = "{0} against {1}")
    @CsvSource({"push-pull, ours", "push-pull, libzmq", "dealer-router, ours", "dealer-router, libzmq"})
    void shouldLoseOnlyInFlightMessagesAndDuplicateNoneWhileThePeerIsKilledAndRestarted(String pattern, String peer)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.zmtp.tools.Zmtp");
        cmd.addAll(List.of("soak", "--pattern", pattern, "--peer", peer, "--python", PyZmq.python().toString(),
                "--duration", Integer.toString(SECONDS), "--kill-every", "3"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        long limit = SECONDS + 180L;
        if (!p.waitFor(limit, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("zmtp soak did not finish in " + limit + " s:\n"
                    + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        System.out.print(out);
        String report = out.lines().filter(l -> l.startsWith("soak ")).reduce((a, b) -> b).orElse("");
        assertThat(p.exitValue()).as("zmtp soak's verdict:%n%s", out).isZero();
        assertThat(report).contains("within ZeroMQ's guarantee");
        Matcher m = REPORT.matcher(report);
        assertThat(m.matches()).as(report).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("kills").isPositive();
        assertThat(Long.parseLong(m.group(3).replace(",", ""))).as("messages received").isPositive();
    }
}
