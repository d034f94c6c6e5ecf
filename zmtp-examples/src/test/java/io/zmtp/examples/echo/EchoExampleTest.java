package io.zmtp.examples.echo;

import io.zmtp.examples.Output;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both echo services, run for three seconds as {@code ./zmtp example echo} and {@code echo-netty} run them: a line
 * per client and a total each second, then the average; replies came back to every client.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EchoExampleTest {
    private static final Pattern CLIENT = Pattern.compile("^\\s*(\\d+)s client\\s+(\\d+):\\s+[\\d,]+ packets/s\\s+[\\d,]+ bytes/s$");
    private static final Pattern TOTAL = Pattern.compile("^\\s*(\\d+)s total\\s+:\\s+[\\d,]+ packets/s\\s+[\\d,]+ bytes/s$");
    private static final Pattern STOPPED = Pattern.compile("^echo \\(.+\\): stopped; average [\\d,]+ packets/s "
            + "[\\d,]+ bytes/s over 3 s; ([\\d,]+) replies in all$");
    private static final String[] ARGS = {"--duration", "3", "--port", "0", "--clients", "3", "--in-flight", "4",
        "--workers", "2", "--size", "100"};

    @Test
    void shouldPrintEachClientAndTheTotalEverySecondOverZeroMq() {
        EchoCommand command = new EchoCommand();
        Output output = new Output();
        command.out = output.stream();
        assertThat(new CommandLine(command).execute(ARGS)).isZero();
        check(output.all(), "echo (ZeroMQ)");
    }

    @Test
    void shouldPrintTheSameOnPlainNetty() {
        NettyEchoCommand command = new NettyEchoCommand();
        Output output = new Output();
        command.out = output.stream();
        assertThat(new CommandLine(command).execute(ARGS)).isZero();
        check(output.all(), "echo (plain Netty)");
    }

    private static void check(List<String> lines, String name) {
        assertThat(lines.get(0)).startsWith(name + ": server on tcp port ").endsWith(", 2 workers, 2.0 ms of work per request");
        assertThat(lines.get(1)).startsWith(name + ": 3 clients to 127.0.0.1:").endsWith(", 4 requests in flight each, 100 B packets");
        int line = 2;
        for (int second = 1; second <= 3; second++) {
            for (int client = 1; client <= 3; client++) {
                Matcher m = CLIENT.matcher(lines.get(line++));
                assertThat(m.matches()).as(lines.get(line - 1)).isTrue();
                assertThat(m.group(1)).isEqualTo(Integer.toString(second));
                assertThat(m.group(2)).isEqualTo(Integer.toString(client));
            }
            Matcher m = TOTAL.matcher(lines.get(line++));
            assertThat(m.matches()).as(lines.get(line - 1)).isTrue();
            assertThat(m.group(1)).isEqualTo(Integer.toString(second));
        }
        assertThat(lines.get(line)).startsWith(name);
        Matcher stopped = STOPPED.matcher(lines.get(line));
        assertThat(stopped.matches()).as(lines.get(line)).isTrue();
        assertThat(Long.parseLong(stopped.group(1).replace(",", ""))).as("replies").isPositive();
        assertThat(lines).hasSize(line + 1);
    }
}
