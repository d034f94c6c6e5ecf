package io.zmtp.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The browser client {@code zws.js} (zmtp-examples' web page) against libzmq 4.3.5's ws:// server through npm's
 * zeromq 6.8.0 ({@code zws_js_libzmq.mjs}): a SUB getting only its topic from libzmq's PUB, a REQ-style request to
 * libzmq's ROUTER and its reply. zws.js offers only the bare {@code ZWS2.0}, as a browser must, so this is the bare
 * form between libzmq and our code (libzmq can't be made to choose it with our Java sockets, which offer
 * {@code ZWS2.0/NULL} first, as libzmq's own clients do). Node's WebSocket stands in for a browser's (Node 22, or
 * 20.10+ with {@code --experimental-websocket}); zeromq from the build's target/node, as for {@link WsInteropIT}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZwsJsInteropIT {
    @Test
    void zwsJsTalksToLibzmqsWsServer() throws Exception {
        Path nodeDir = Path.of(System.getProperty("zmtp.interop.node", "target/node")).toAbsolutePath();
        Path script = Path.of(System.getProperty("zmtp.interop.nodeScripts", "src/test/node"), "zws_js_libzmq.mjs")
                .toAbsolutePath();
        Path zwsJs = Path.of(System.getProperty("zmtp.interop.zwsJs",
                "../zmtp-examples/src/main/resources/web/zws.js")).toAbsolutePath().normalize();
        assertThat(nodeDir.resolve("node_modules/zeromq"))
                .as("npm's zeromq 6.8.0 in " + nodeDir + " (npm install --prefix " + nodeDir + " zeromq@6.8.0)")
                .isDirectory();
        assertThat(zwsJs).isRegularFile();

        List<String> command = new ArrayList<>(List.of("node"));
        if (!nodeHasWebSocket()) {
            command.add("--experimental-websocket");
        }
        command.addAll(List.of(script.toString(), nodeDir.toString(), zwsJs.toString()));
        Process node = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(node.waitFor(scaledSeconds(40), TimeUnit.SECONDS)).as("zws_js_libzmq.mjs finished").isTrue();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.exitValue()).as(out).isZero();
        assertThat(out).contains("ok libzmq PUB -> zws.js SUB", "ok zws.js request -> libzmq ROUTER",
                "ok libzmq ROUTER reply -> zws.js", "ok two requests at once",
                "ok libzmq's routing id message came first", "done");
    }

    /** Node 22 has a global WebSocket; 20.10+ only behind a flag; older ones none (the script then says so). */
    private static boolean nodeHasWebSocket() throws Exception {
        Process p = new ProcessBuilder("node", "-e", "process.stdout.write(typeof WebSocket)")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(scaledSeconds(20), TimeUnit.SECONDS);
        return out.equals("function");
    }
}
