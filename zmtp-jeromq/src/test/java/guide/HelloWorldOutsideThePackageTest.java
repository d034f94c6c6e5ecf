package guide;

import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Guide's hello world shape, from a package of its own as an application is: the methods ZMQ.Socket inherits
 * from its package-private bodies are callable (and usable as method references) from outside org.zeromq.
 */
class HelloWorldOutsideThePackageTest {

    @Test
    void aClientAndAServerExchangeThroughThePublicApi() {
        try (ZContext context = new ZContext()) {
            ZMQ.Socket server = context.createSocket(SocketType.REP);
            server.bind("inproc://hello");
            CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 3; i++) {
                    byte[] request = server.recv(0);
                    server.send(("World " + new String(request, ZMQ.CHARSET)).getBytes(ZMQ.CHARSET), 0);
                }
            }, task -> new Thread(task).start()); // a blocking task: a thread of its own, not a common-pool worker

            ZMQ.Socket client = context.createSocket(SocketType.REQ);
            client.connect("inproc://hello");
            Supplier<String> receive = client::recvStr;
            for (int i = 0; i < 3; i++) {
                client.send("Hello " + i);
                assertThat(receive.get()).isEqualTo("World Hello " + i);
            }
            serving.join();

            ZMQ.Poller poller = context.createPoller(1);
            poller.register(client, ZMQ.Poller.POLLOUT);
            assertThat(poller.poll(0)).isEqualTo(1);
            ZMsg.newStringMsg("done").send(client);
            poller.close();
        }
    }
}
