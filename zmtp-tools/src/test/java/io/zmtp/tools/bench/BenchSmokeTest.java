package io.zmtp.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Each benchmark runs for a second, prints its header and its summary, and leaks nothing. */
class BenchSmokeTest {

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "throughput --duration 1; a message built per write, codec only; average: ",
        "throughput --duration 1 --same-message; one message retained per write, codec only; average: ",
        "throughput --socket --duration 1; socket layer; average: ",
        "throughput --socket --transport inproc --duration 1; over inproc://; average: ",
        "throughput --socket --transport ws --duration 1; over ws://127.0.0.1:; average: ",
        "reqrep --duration 1 --inflight 10 --clients 2; 2 DEALER -> ROUTER; average: ",
        "reqrep --duration 1 --inflight 10 --transport ws; 1 DEALER -> ROUTER over ws://127.0.0.1:; average: ",
        "custom-codec --duration 1 --inflight 10; custom codec (application objects); average: ",
        "custom-codec --duration 1 --inflight 10 --zmtp-message --no-native-transport; , nio, ; average: ",
        "custom-codec --duration 1 --inflight 10 --zmtp-message --same-request; ZmtpMessage, the same request each time; average: ",
        "fanout --duration 1 --subscribers 3 --size 16; PUB -> 3 SUB; messages/s delivered over 1 s to 3 subscribers",
        "fanout --duration 1 --subscribers 4 --receivers 2 --io-threads 2; 2 receiving thread(s); dropped at SNDHWM",
        "fanout --duration 1 --subscribers 3 --size 16 --radio; RADIO -> 3 DISH (group fanout) over tcp://; "
                + "messages/s delivered over 1 s to 3 subscribers",
        "router-scale --duration 1 --peers 20 --inflight 2; 20 DEALER -> ROUTER; requests/s over 1 s with 20 peers",
        "router-scale --duration 1 --peers 10 --io-threads 2; connected: 10 peers; per peer: heap ",
        "router-scale --duration 1 --peers 5 --dealer-process; DEALERs in a child JVM; per peer: ROUTER process heap ",
        "router-scale --duration 1 --peers 20 --active 2 --dealer-process; (2 of them sending, the rest silent); "
                + "sending: 2 of 20 peers"})
    void runsAndReports(String args, String header, String summary) {
        String printed = run(0, args);
        assertThat(printed).contains(header).contains(summary);
    }

    /** Runs {@code zmtp bench args}, expects {@code status}, and returns what it printed on stdout and stderr. */
    private static String run(int status, String args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            exit = new CommandLine(new BenchCommand()).execute(args.split(" "));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isEqualTo(status);
        return printed;
    }

    @Test
    void radioFanoutDeliversToEveryDishOverTcp() {
        String printed = run(0, "fanout --duration 2 --subscribers 4 --size 16 --radio");
        // Exit 0 means every DISH received a message: the bench starts timing only once each has heard a probe, and
        // fails (1) otherwise. How many each gets in the 2 s is speed, not behaviour: under the leak detector at
        // PARANOID on a loaded machine, one of four DISHes got fewer than 2 (a 0/s rate) while another got 900.
        assertThat(printed).as(printed).containsPattern("to 4 subscribers, [0-9,]+/s per subscriber \\(slowest ")
                .containsPattern("the slowest subscriber received [0-9,]+");
    }

    @Test
    void fanoutRefusesUdpWithoutRadioAndMultipartRadio() {
        assertThat(run(2, "fanout --duration 1 --endpoint udp://127.0.0.1:*")).contains("add --radio");
        assertThat(run(2, "fanout --duration 1 --radio --frames 2")).contains("single-part");
    }
}
