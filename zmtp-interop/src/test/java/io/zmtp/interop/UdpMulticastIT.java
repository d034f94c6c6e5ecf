package io.zmtp.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RADIO to DISH over udp:// multicast on a real interface: both run in a process inside a network namespace of the
 * test's own ({@link NetNamespace}), the DISH joined to 239.192.7.7 on the namespace's end of a veth pair and the
 * RADIO sending out of it. Nothing can leave the namespace but onto that veth pair, whose other end is this host's and
 * forwards nothing. Needs root, iproute2 and iptables (the build installs the packages).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UdpMulticastIT {
    @Test
    void shouldDeliverAJoinedGroupOverMulticastOnAVethInterface() throws Exception {
        try (NetNamespace ns = NetNamespace.create()) {
            int port = 5601 + (int) (ProcessHandle.current().pid() % 1000);
            Process p = ns.start(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), UdpMulticastMain.class.getName(),
                    ns.peerInterface, "239.192.7.7", String.valueOf(port)));
            assertThat(p.waitFor(scaledSeconds(40), TimeUnit.SECONDS)).as("the namespace's process ended").isTrue();
            List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            assertThat(lines).first().isEqualTo("BOUND udp://" + ns.peerInterface + ";239.192.7.7:" + port);
            assertThat(lines.subList(1, lines.size())).as("three of the joined group, none of the other")
                    .hasSize(3).allMatch(l -> l.startsWith("weather|rain "));
        }
    }

    /**
     * Against libzmq 4.3.5 (zeromq.js) over multicast, both ways, all in the namespace: our RADIO (a JVM there) to
     * their DISH joined on the namespace's interface, and their RADIO to our DISH.
     */
    @Test
    void shouldInteroperateWithLibzmqOverMulticastBothWays() throws Exception {
        try (NetNamespace ns = NetNamespace.create()) {
            int port = 5701 + (int) (ProcessHandle.current().pid() % 1000);
            String endpoint = "udp://" + ns.peerInterface + ";239.192.7.8:" + port;
            List<String> inNamespace = List.of("ip", "netns", "exec", ns.name);
            String javaBin = Paths.get(System.getProperty("java.home"), "bin", "java").toString();

            try (DraftPeer theirs = new DraftPeer.Node(inNamespace)) {
                theirs.ok("new d DISH");
                theirs.ok("join d g1");
                theirs.ok("bind d " + endpoint);
                Process ours = ns.start(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                        UdpMulticastMain.class.getName(), "radio", endpoint));
                String got = "NONE";
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(scaledSeconds(10));
                while (got.startsWith("NONE") && System.nanoTime() - deadline < 0) {
                    got = theirs.call("recv d 100");
                }
                assertThat(got).as("their DISH got our RADIO's g1").startsWith("MSG hello-").contains("group=g1");
                assertThat(theirs.call("drain d 300")).doesNotContain("g2:");
                ours.destroy();
            }

            try (DraftPeer theirs = new DraftPeer.Node(inNamespace)) {
                Process ours = ns.start(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                        UdpMulticastMain.class.getName(), "dish", endpoint));
                BufferedReader out = new BufferedReader(new InputStreamReader(
                        ours.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("BOUND " + endpoint);
                theirs.ok("new r RADIO");
                theirs.ok("connect r " + endpoint);
                CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> out.lines().toList());
                for (int i = 0; i < 100 && !lines.isDone(); i++) {
                    theirs.ok("send r other-" + i + " group=g2");
                    theirs.ok("send r hello-" + i + " group=g1");
                    Thread.sleep(50);
                }
                assertThat(lines.get(scaledSeconds(20), TimeUnit.SECONDS)).as("our DISH got their RADIO's g1 only")
                        .hasSize(3).allMatch(l -> l.startsWith("g1|hello-"));
            }
        }
    }
}
