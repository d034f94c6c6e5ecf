package io.zmtp.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;

/**
 * A network namespace of the test's own, joined to this one by a veth pair: this side {@code 10.201.N.1}, the
 * namespace {@code 10.201.N.2} (N from the process id, so concurrent runs don't collide). Traffic only ever goes between
 * the two ends. {@link #dropAll()} makes the namespace drop every packet (iptables, inside the namespace only), a
 * dead link with no FIN and no reset; {@link #restore()} lifts it. Needs root, {@code ip} (iproute2) and
 * {@code iptables}: the build installs Debian's packages (bench/install-debian-packages.sh, in
 * pre-integration-test); without them the test fails.
 */
final class NetNamespace implements AutoCloseable {
    final String name;
    final String hostAddress;
    final String peerAddress;
    /** This side's end of the veth pair, and the namespace's. */
    final String hostInterface;
    final String peerInterface;
    private final List<Process> processes = new ArrayList<>();

    private NetNamespace(long id) {
        name = "zmtp-dead-" + id;
        hostInterface = "zth" + (id % 100_000);
        peerInterface = "ztp" + (id % 100_000);
        int subnet = (int) (id % 250) + 1;
        hostAddress = "10.201." + subnet + ".1";
        peerAddress = "10.201." + subnet + ".2";
    }

    static NetNamespace create() {
        requireTools();
        NetNamespace ns = new NetNamespace(ProcessHandle.current().pid());
        String peerInterface = ns.peerInterface;
        // Left over by a run of the same process id that was killed: start clean.
        runQuietly("ip", "netns", "del", ns.name);
        runQuietly("ip", "link", "del", ns.hostInterface);
        try {
            run("ip", "netns", "add", ns.name);
            run("ip", "link", "add", ns.hostInterface, "type", "veth", "peer", "name", peerInterface);
            run("ip", "link", "set", peerInterface, "netns", ns.name);
            run("ip", "addr", "add", ns.hostAddress + "/30", "dev", ns.hostInterface);
            run("ip", "link", "set", ns.hostInterface, "up");
            run("ip", "-n", ns.name, "addr", "add", ns.peerAddress + "/30", "dev", peerInterface);
            run("ip", "-n", ns.name, "link", "set", peerInterface, "up");
            run("ip", "-n", ns.name, "link", "set", "lo", "up");
            return ns;
        } catch (RuntimeException | Error e) {
            ns.close();
            throw e;
        }
    }

    private static void requireTools() {
        String why = null;
        try {
            Process ip = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!ip.waitFor(scaledSeconds(10), TimeUnit.SECONDS) || ip.exitValue() != 0) {
                why = "`ip netns list` failed: " + out.strip();
            }
            Process iptables = new ProcessBuilder("iptables", "-V").redirectErrorStream(true).start();
            iptables.getInputStream().readAllBytes();
            if (why == null && (!iptables.waitFor(scaledSeconds(10), TimeUnit.SECONDS) || iptables.exitValue() != 0)) {
                why = "`iptables -V` failed";
            }
        } catch (IOException e) {
            why = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        if (why != null) {
            throw new AssertionError("network namespaces are unavailable (" + why + "). This test needs root and"
                    + " Debian's iproute2 and iptables, which the build installs when it runs as root (else:"
                    + " apt-get install -y iproute2 iptables).");
        }
    }

    /** Starts {@code command} inside the namespace; killed by {@link #close()}. */
    Process start(List<String> command) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(command);
        Process p = new ProcessBuilder(full).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        return p;
    }

    /** From now on the namespace drops every packet in and out: the link is dead, without FIN or reset. */
    void dropAll() {
        run("ip", "netns", "exec", name, "iptables", "-I", "INPUT", "1", "-j", "DROP");
        run("ip", "netns", "exec", name, "iptables", "-I", "OUTPUT", "1", "-j", "DROP");
    }

    /** Lifts {@link #dropAll()}: packets flow again. */
    void restore() {
        run("ip", "netns", "exec", name, "iptables", "-D", "INPUT", "-j", "DROP");
        run("ip", "netns", "exec", name, "iptables", "-D", "OUTPUT", "-j", "DROP");
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        // Deleting the namespace deletes its end of the veth pair, and with it ours; the second is for a half-made one.
        runQuietly("ip", "netns", "del", name);
        runQuietly("ip", "link", "del", hostInterface);
    }

    private static void run(String... command) {
        String failure = execute(command);
        if (failure != null) {
            throw new AssertionError(String.join(" ", command) + " failed: " + failure);
        }
    }

    private static void runQuietly(String... command) {
        execute(command);
    }

    /** Null on success, else what went wrong. */
    private static String execute(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(scaledSeconds(10), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out.strip();
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
