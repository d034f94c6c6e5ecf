package io.zmtp.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
            assertThat(p.waitFor(40, TimeUnit.SECONDS)).as("the namespace's process ended").isTrue();
            List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            assertThat(lines).first().isEqualTo("BOUND udp://" + ns.peerInterface + ";239.192.7.7:" + port);
            assertThat(lines.subList(1, lines.size())).as("three of the joined group, none of the other")
                    .hasSize(3).allMatch(l -> l.startsWith("weather|rain "));
        }
    }
}
